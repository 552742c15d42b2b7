package dev.hotspare.postgres;

import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Migrations: idempotent, safe to run concurrently, confined to their schema, names validated. */
class PostgresSchemaTest {

    /** Versioned migrations shipped in the jar (counted, so a new migration needs no edit here). */
    private static final int MIGRATIONS = shippedMigrations();

    private static int shippedMigrations() {
        try {
            java.net.URL dir = PostgresSchema.class.getClassLoader().getResource("dev/hotspare/postgres/migration");
            try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(java.nio.file.Path.of(dir.toURI()))) {
                return (int) files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql")).count();
            }
        } catch (java.io.IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException("cannot list the migrations", e);
        }
    }

    private final DataSource ds = TestPostgres.dataSource();
    private final String schema = "hs_test_schema_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);

    @AfterEach
    void dropSchema() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    @Test
    void migratingTwiceAppliesEachMigrationOnce() throws SQLException {
        assertThat(PostgresSchema.migrate(ds, schema)).isEqualTo(MIGRATIONS);
        assertThat(PostgresSchema.migrate(ds, schema)).isZero();

        assertThat(successfulHistoryRows()).isEqualTo(MIGRATIONS);
        assertThat(tables(schema)).contains("schedulers", "scheduler_releases", "fences", "claims", "pool_members",
                "rollouts", "leases", PostgresSchema.HISTORY_TABLE);
    }

    @Test
    void twoWorkersMigratingAtOnceLeaveOneSchemaAndNoError() throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                results.add(workers.submit(() -> {
                    go.await();
                    return PostgresSchema.migrate(ds, schema);
                }));
            }
            go.countDown();
            int applied = 0;
            for (Future<Integer> result : results) {
                applied += result.get(60, TimeUnit.SECONDS);
            }
            assertThat(applied).isEqualTo(MIGRATIONS);
        } finally {
            workers.shutdownNow();
        }
        assertThat(successfulHistoryRows()).isEqualTo(MIGRATIONS);
        assertThat(new PostgresRolloutStore(ds, schema).names()).isEmpty();
    }

    @Test
    void theHistoryTableIsHotsparesOwnAndLivesInItsSchema() throws SQLException {
        PostgresSchema.migrate(ds, schema);

        assertThat(tables("public")).doesNotContain(PostgresSchema.HISTORY_TABLE, "flyway_schema_history", "claims");
    }

    @Test
    void schemaNamesThatAreNotPlainIdentifiersAreRejectedBeforeAnyIo() {
        DataSource unreachable = new org.postgresql.ds.PGSimpleDataSource();
        for (String bad : Arrays.asList(null, "", "Hotspare", "a-b", "a;drop schema public", "pg_catalog", "1abc",
                "a b", "\"x\"", "x".repeat(49))) {
            assertThatThrownBy(() -> PostgresSchema.migrate(unreachable, bad)).as("schema %s", bad)
                    .isInstanceOf(ValidationException.class).hasMessageContaining("schema");
            assertThatThrownBy(() -> new PostgresClaimStore(unreachable, bad)).as("schema %s", bad)
                    .isInstanceOf(ValidationException.class);
            assertThatThrownBy(() -> new PostgresLockStore(unreachable, bad)).isInstanceOf(ValidationException.class);
            assertThatThrownBy(() -> new PostgresSchedulerStore(unreachable, bad)).isInstanceOf(ValidationException.class);
            assertThatThrownBy(() -> new PostgresRolloutStore(unreachable, bad)).isInstanceOf(ValidationException.class);
        }
        assertThat(PostgresSchema.isValidName("hotspare_eu_1")).isTrue();
    }

    private int successfulHistoryRows() throws SQLException {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM " + schema + "." + PostgresSchema.HISTORY_TABLE
                     + " WHERE success AND version IS NOT NULL");
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private List<String> tables(String inSchema) throws SQLException {
        try (Connection c = ds.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT table_name FROM information_schema.tables WHERE table_schema = ?")) {
            ps.setString(1, inSchema);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }
}
