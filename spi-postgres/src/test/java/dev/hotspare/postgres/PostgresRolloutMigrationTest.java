package dev.hotspare.postgres;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.RolloutStateJson;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutStore.RolloutConflictException;
import dev.hotspare.rollout.spi.RolloutStore.RolloutInProgressException;
import dev.hotspare.testkit.servers.TestPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** V3 on a database that already holds rollouts: they keep their targets and their in-progress flag. */
class PostgresRolloutMigrationTest {

    private final DataSource ds = TestPostgres.dataSource();
    private final String schema = "hs_test_v3_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);

    @AfterEach
    void dropSchema() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    private static RolloutState rollout(String name, String... devices) {
        RolloutSpec spec = RolloutSpec.builder(name, "2.0").upgradeControlPlane(false).build();
        return RolloutMachine.initial(spec, new Inventory(java.util.Arrays.stream(devices)
                .map(d -> Target.device(d, "1.0", Map.of())).toList()));
    }

    private void insertV1(RolloutState state) throws SQLException {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema + ".rollouts (name, state, version) VALUES (?, ?::jsonb, 1)")) {
            ps.setString(1, state.name());
            ps.setString(2, RolloutStateJson.write(state));
            ps.executeUpdate();
        }
    }

    @Test
    void rolloutsStoredBeforeV3KeepTheirTargetsTheFirstByNameWinningATargetTwoCover() throws SQLException {
        Flyway.configure(PostgresSchema.class.getClassLoader()).dataSource(ds).schemas(schema).defaultSchema(schema)
                .table(PostgresSchema.HISTORY_TABLE).locations("classpath:dev/hotspare/postgres/migration").target("1")
                .load().migrate();
        insertV1(rollout("b", "shared", "b-own"));
        insertV1(rollout("a", "shared", "a-own"));
        RolloutState done = RolloutMachine.decide(rollout("c", "c-own"), new RolloutEvent.Abort(), Instant.EPOCH).state();
        insertV1(done);

        assertThat(PostgresSchema.migrate(ds, schema)).as("V3 and whatever else follows V1").isPositive();
        PostgresRolloutStore store = new PostgresRolloutStore(ds, schema);

        assertThatThrownBy(() -> store.save(rollout("d", "shared", "b-own", "c-own"), 0))
                .isInstanceOfSatisfying(RolloutConflictException.class, e -> assertThat(e.heldBy()).containsExactly(
                        Map.entry("a", List.of(TargetRef.device("shared"))), Map.entry("b", List.of(TargetRef.device("b-own")))));
        assertThatThrownBy(() -> store.delete("a")).isInstanceOf(RolloutInProgressException.class);
        assertThat(store.delete("c")).isTrue();
        store.save(RolloutMachine.decide(rollout("a", "shared", "a-own"), new RolloutEvent.Abort(), Instant.EPOCH).state(), 1);
        assertThat(store.save(rollout("d", "shared", "c-own"), 0)).isEqualTo(1);
    }
}
