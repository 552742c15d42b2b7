package dev.hotspare.postgres;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Objects;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * Creates and upgrades hotspare's tables: the migrations ship in this jar and run through Flyway with their
 * own history table ({@value #HISTORY_TABLE}) inside their own schema (default {@value #DEFAULT_SCHEMA}), so
 * they never mix with the host application's migrations.
 *
 * <p>Safe to call from every worker at start-up: callers serialise on a PostgreSQL advisory lock derived from
 * the schema name, so concurrent calls apply each migration once and the others find nothing to do. Needs
 * two connections from the data source while it runs (one holds the lock, Flyway uses another).
 *
 * <pre>{@code
 * PostgresSchema.migrate(dataSource);                    // schema "hotspare"
 * PostgresSchema.migrate(dataSource, "fleet_eu");        // or a schema of your choice
 * var claims = new PostgresClaimStore(dataSource, "fleet_eu");
 * }</pre>
 */
public final class PostgresSchema {

    /** The schema used when none is named. */
    public static final String DEFAULT_SCHEMA = "hotspare";
    /** Flyway's history table for hotspare's migrations (in the hotspare schema). */
    public static final String HISTORY_TABLE = "hotspare_schema_history";
    /** Longest schema name accepted; leaves room for the notification channel suffix within 63 bytes. */
    public static final int MAX_SCHEMA_NAME_LENGTH = 48;

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");
    private static final String STORE = "postgres schema";

    private PostgresSchema() {
    }

    /**
     * Migrates schema {@value #DEFAULT_SCHEMA}; see {@link #migrate(DataSource, String)}.
     */
    public static int migrate(DataSource dataSource) {
        return migrate(dataSource, DEFAULT_SCHEMA);
    }

    /**
     * Creates schema {@code schema} if needed and applies every migration it lacks.
     *
     * @return the number of migrations this call applied (0 when the schema was already current)
     * @throws ValidationException                          if {@code schema} is not a plain lower-case identifier
     * @throws dev.hotspare.spi.StoreUnavailableException   if the database cannot be reached
     * @throws PostgresStoreException                       if a migration fails
     */
    public static int migrate(DataSource dataSource, String schema) {
        Objects.requireNonNull(dataSource, "dataSource");
        requireValidName(schema);
        try (Connection lockHolder = dataSource.getConnection()) {
            // A session-level advisory lock, held across Flyway's own transactions: only one caller at a time
            // creates the schema and its history table (Flyway's own locking starts after both exist).
            try (PreparedStatement lock = lockHolder.prepareStatement("SELECT pg_advisory_lock(hashtextextended(?, 0))")) {
                lock.setString(1, "hotspare.migrate." + schema);
                lock.execute();
            }
            try {
                MigrateResult result = Flyway.configure(PostgresSchema.class.getClassLoader())
                        .dataSource(dataSource)
                        .schemas(schema)
                        .defaultSchema(schema)
                        .table(HISTORY_TABLE)
                        .locations("classpath:dev/hotspare/postgres/migration")
                        .load()
                        .migrate();
                return result.migrationsExecuted;
            } catch (RuntimeException e) {
                if (Jdbc.isUnavailable(e)) {
                    throw new dev.hotspare.spi.StoreUnavailableException(STORE, "migrating schema " + schema, e);
                }
                throw new PostgresStoreException(STORE + ": migrating schema " + schema + " failed: " + e.getMessage(), e);
            } finally {
                try (PreparedStatement unlock = lockHolder.prepareStatement("SELECT pg_advisory_unlock(hashtextextended(?, 0))")) {
                    unlock.setString(1, "hotspare.migrate." + schema);
                    unlock.execute();
                }
            }
        } catch (SQLException e) {
            throw Jdbc.translate(STORE, "migrating schema " + schema, e);
        }
    }

    /**
     * Whether {@code schema} is acceptable: see {@link #requireValidName}.
     */
    public static boolean isValidName(String schema) {
        return schema != null && !schema.isEmpty() && schema.length() <= MAX_SCHEMA_NAME_LENGTH
                && IDENTIFIER.matcher(schema).matches() && !schema.startsWith("pg_");
    }

    /**
     * Returns {@code schema} if it is a plain lower-case SQL identifier ({@code [a-z_][a-z0-9_]*}, at most
     * {@value #MAX_SCHEMA_NAME_LENGTH} characters, not starting with {@code pg_}). Schema names become part of
     * SQL text (identifiers cannot be bound as parameters), so nothing else is accepted.
     *
     * @throws ValidationException naming field {@code schema} and the bad value otherwise
     * @return returns {@code schema} if it is a plain lower-case SQL identifier ({@code [a-z_][a-z0-9_]*}, at most
     *         {@value #MAX_SCHEMA_NAME_LENGTH} characters, not starting with {@code pg_})
     */
    public static String requireValidName(String schema) {
        if (!isValidName(schema)) {
            throw new ValidationException(Problem.of("schema", schema == null ? Problem.MISSING : schema,
                    "must be a lower-case SQL identifier [a-z_][a-z0-9_]*, at most " + MAX_SCHEMA_NAME_LENGTH
                            + " characters, not starting with 'pg_' (e.g. 'hotspare')"));
        }
        return schema;
    }
}
