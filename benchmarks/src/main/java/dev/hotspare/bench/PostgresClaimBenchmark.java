package dev.hotspare.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hotspare.pool.Claim;
import dev.hotspare.postgres.PostgresClaimStore;
import dev.hotspare.postgres.PostgresSchema;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.RunResult;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Claims assigned per second on one embedded PostgreSQL, with 1 and 8 claimers.
 *
 * <ul>
 *   <li><b>candidate</b> {@code store}: {@link PostgresClaimStore#assignOldest} — the oldest pending claim gets
 *       the oldest free offered member; both rows locked with {@code SKIP LOCKED}, the member row deleted and
 *       the claim row updated, in one statement (it sends no {@code NOTIFY}).</li>
 *   <li><b>baseline</b> {@code rawSql}: the textbook queue pop on the same {@code claims} table (same indexes),
 *       a raw JDBC loop of {@code UPDATE claims SET member_id = ... WHERE id = (SELECT id ... FOR UPDATE SKIP
 *       LOCKED LIMIT 1) RETURNING id} — no member table, no notification.</li>
 * </ul>
 * Both borrow a connection per operation from the same HikariCP pool. Before every iteration the tables are
 * refilled with {@value #ROWS} pending claims and as many free members, more than an iteration consumes.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.PostgresClaimBenchmark --jmh}
 *
 * <p>Without {@code --jmh}, {@link #main} runs {@link PostgresClaimLoad}: claims through one pool controller on
 * PostgreSQL, open loop, batched assignment against the one-transaction-per-assignment baseline.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PostgresClaimBenchmark {

    static final int ROWS = 60_000;
    static final String SCHEMA = "bench";
    static final String POOL = "bench";
    static final Instant AT = Instant.parse("2026-03-01T10:00:00Z");

    /** One server, pool and store shared by all claimer threads. */
    @State(Scope.Benchmark)
    public static class Db {
        EmbeddedPostgres server;
        HikariDataSource dataSource;
        PostgresClaimStore store;

        @Setup(Level.Trial)
        public void start() throws IOException {
            server = EmbeddedPostgres.builder().start();
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(server.getJdbcUrl("postgres", "postgres"));
            config.setMaximumPoolSize(16);
            dataSource = new HikariDataSource(config);
            PostgresSchema.migrate(dataSource, SCHEMA);
            store = new PostgresClaimStore(dataSource, SCHEMA);
        }

        /** Fresh queue: {@value #ROWS} pending claims and free members, oldest first by creation time. */
        @Setup(Level.Iteration)
        public void refill() throws SQLException {
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute("TRUNCATE " + SCHEMA + ".claims, " + SCHEMA + ".pool_members");
                s.execute("INSERT INTO " + SCHEMA + ".claims (pool, name, created_at) SELECT '" + POOL + "', 'c-' || i, "
                        + "timestamptz '2026-01-01 00:00:00+00' + i * interval '1 millisecond' FROM generate_series(1, " + ROWS + ") i");
                s.execute("INSERT INTO " + SCHEMA + ".pool_members (pool, member_id, ready_since) SELECT '" + POOL + "', 'm-' || i, "
                        + "timestamptz '2026-01-01 00:00:00+00' + i * interval '1 millisecond' FROM generate_series(1, " + ROWS + ") i");
                s.execute("VACUUM ANALYZE " + SCHEMA + ".claims");
                s.execute("VACUUM ANALYZE " + SCHEMA + ".pool_members");
            }
        }

        @TearDown(Level.Trial)
        public void stop() throws IOException {
            dataSource.close();
            server.close();
        }
    }

    /** The single-statement queue pop the store is compared with. */
    static final String RAW_POP = "UPDATE " + SCHEMA + ".claims SET member_id = 'x-' || id, assigned_at = ? "
            + "WHERE id = (SELECT id FROM " + SCHEMA + ".claims WHERE pool = ? AND member_id IS NULL "
            + "ORDER BY created_at, name COLLATE \"C\" LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id";

    @Benchmark
    public Optional<Claim> store(Db db) {
        return db.store.assignOldest(POOL, AT);
    }

    @Benchmark
    public long rawSql(Db db) throws SQLException {
        try (Connection c = db.dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(RAW_POP)) {
            ps.setObject(1, java.time.OffsetDateTime.ofInstant(AT, java.time.ZoneOffset.UTC));
            ps.setString(2, POOL);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : -1;
            }
        }
    }

    /** The JMH comparison of the store-side assignment with a raw queue pop (option {@code --jmh}). */
    static void jmh() throws Exception {
        List<RunResult> results = new ArrayList<>();
        for (int threads : new int[] {1, 8}) {
            Collection<RunResult> run = Comparisons.run(Comparisons.options(PostgresClaimBenchmark.class).threads(threads));
            results.addAll(run);
        }
        Comparisons.printRatios(results, "store", "rawSql");
    }

    /**
     * {@code --jmh}: the JMH store-side comparison above; otherwise the open-loop controller load
     * ({@link PostgresClaimLoad#main}, which takes the remaining options).
     */
    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--jmh")) {
            jmh();
        } else {
            PostgresClaimLoad.main(args);
        }
    }
}
