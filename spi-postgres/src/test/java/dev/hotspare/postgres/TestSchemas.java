package dev.hotspare.postgres;

import dev.hotspare.testkit.servers.TestPostgres;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * hotspare's schemas on the shared test server ({@link TestPostgres}): each test class works in a schema of its
 * own ({@code hs_test_*}), migrated once per JVM.
 */
final class TestSchemas {

    private static final Map<String, Boolean> MIGRATED = new ConcurrentHashMap<>();

    private TestSchemas() {
    }

    /** {@link TestPostgres#dataSource()} with schema {@code schema} migrated (once per JVM). */
    static DataSource migrated(String schema) {
        DataSource ds = TestPostgres.dataSource();
        MIGRATED.computeIfAbsent(schema, s -> {
            PostgresSchema.migrate(ds, s);
            return true;
        });
        return ds;
    }
}
