package dev.hotspare.postgres;

import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.testkit.rollout.RolloutStoreContract;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** The rollout store contract on a real PostgreSQL. The contract wants an empty store per test: this class owns its schema and empties it. */
class PostgresRolloutStoreContractTest extends RolloutStoreContract {

    private static final String SCHEMA = "hs_test_rollouts";

    @Override
    protected RolloutStore newStore() {
        DataSource ds = TestSchemas.migrated(SCHEMA);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("TRUNCATE " + SCHEMA + ".rollout_targets, " + SCHEMA + ".rollouts");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return new PostgresRolloutStore(ds, SCHEMA);
    }
}
