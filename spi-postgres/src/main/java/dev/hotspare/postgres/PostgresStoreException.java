package dev.hotspare.postgres;

/**
 * PostgreSQL answered, but with an error that retrying will not fix: the schema was not migrated
 * ({@link PostgresSchema#migrate}), the user lacks a privilege, or a bug. The SQL state and message are in
 * the cause. Availability problems (server down, connection lost, pool exhausted) are reported with
 * {@link dev.hotspare.spi.StoreUnavailableException} instead.
 */
public final class PostgresStoreException extends RuntimeException {

    /**
     * An error described by {@code message}, caused by {@code cause} (usually the {@link java.sql.SQLException}).
     */
    public PostgresStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
