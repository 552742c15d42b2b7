package dev.hotspare.postgres;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The examples' door to spi-postgres's test server ({@link TestDatabase}, reused through the module's
 * test-jar): embedded PostgreSQL, or {@code HOTSPARE_TEST_JDBC_URL}.
 */
public final class SharedTestDatabase {

    private SharedTestDatabase() {
    }

    /** A JDBC URL of the shared test server (credentials inside, as the embedded server has them), started on first use. */
    public static String jdbcUrl() {
        return ((HikariDataSource) TestDatabase.dataSource()).getJdbcUrl();
    }
}
