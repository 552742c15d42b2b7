package dev.hotspare.postgres;

import dev.hotspare.pool.Claim;
import dev.hotspare.testkit.servers.TestPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Schema version 2 adds a claim's ready time. A database at version 1 with claims in it migrates in place: the
 * claims keep everything they had, have no ready time yet, and get one when the controller marks them.
 */
class ClaimReadyMigrationTest {

    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private final DataSource ds = TestPostgres.dataSource();
    private final String schema = "hs_test_v1_" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);

    @AfterEach
    void dropSchema() throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        }
    }

    @Test
    void claimsWrittenAtVersion1SurviveTheMigrationAndCanBeMarkedReady() throws SQLException {
        Flyway.configure(PostgresSchema.class.getClassLoader()).dataSource(ds).schemas(schema).defaultSchema(schema)
                .table(PostgresSchema.HISTORY_TABLE).locations("classpath:dev/hotspare/postgres/migration").target("1")
                .load().migrate();
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("INSERT INTO " + schema + ".claims (pool, name, created_at, member_id, assigned_at) VALUES "
                    + "('ci', 'held', '2026-03-01T10:00:00Z', 'm-1', '2026-03-01T10:05:00Z'), "
                    + "('ci', 'waiting', '2026-03-01T10:01:00Z', NULL, NULL)");
        }

        assertThat(PostgresSchema.migrate(ds, schema)).isGreaterThanOrEqualTo(1);

        PostgresClaimStore store = new PostgresClaimStore(ds, schema);
        assertThat(store.live("ci")).containsExactly(
                new Claim("held", T0, Optional.empty(), Optional.of("m-1"), Optional.of(T0.plus(Duration.ofMinutes(5))), Optional.empty()),
                Claim.pending("waiting", T0.plus(Duration.ofMinutes(1)), Optional.empty()));
        assertThat(store.markReady("ci", "held", T0.plus(Duration.ofMinutes(6)))).isTrue();
        assertThat(store.find("ci", "held").orElseThrow().readyAt()).contains(T0.plus(Duration.ofMinutes(6)));
        assertThat(store.markReady("ci", "waiting", T0.plus(Duration.ofMinutes(6)))).isFalse();
    }

    @Test
    void theDatabaseRefusesAReadyTimeBeforeTheAssignment() throws SQLException {
        PostgresSchema.migrate(ds, schema);
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.execute("INSERT INTO " + schema
                            + ".claims (pool, name, created_at, member_id, assigned_at, ready_at) VALUES "
                            + "('ci', 'odd', '2026-03-01T10:00:00Z', 'm-1', '2026-03-01T10:05:00Z', '2026-03-01T10:04:00Z')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("claims_ready_after_assignment");
        }
    }
}
