package dev.hotspare.postgres;

import dev.hotspare.spi.StoreUnavailableException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The JDBC plumbing every store shares: transactions with rollback on any failure, retry of the deadlock /
 * serialization failures PostgreSQL asks clients to retry, timestamp conversion, and the one place that
 * decides which {@link SQLException}s mean "the database cannot answer" ({@link StoreUnavailableException}).
 */
final class Jdbc {

    /** Unique constraint violated. */
    static final String UNIQUE_VIOLATION = "23505";

    /** PostgreSQL states that mean the server is going away or refusing connections, not a bad statement. */
    private static final Set<String> UNAVAILABLE_STATES = Set.of(
            "57P01", // admin_shutdown: terminating connection due to administrator command
            "57P02", // crash_shutdown
            "57P03", // cannot_connect_now: the database system is starting up / shutting down
            "53300", // too_many_connections
            "57014"  // query_canceled (statement timeout): no answer in time
    );
    /** States PostgreSQL documents as "retry the transaction". */
    private static final Set<String> RETRY_STATES = Set.of("40001", "40P01");
    private static final int ATTEMPTS = 5;

    private Jdbc() {
    }

    /** Work done on a connection; may throw {@link SQLException}, which the caller translates. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction and commits. Any exception rolls back; deadlocks and serialization
     * failures are retried a few times; other SQL failures are translated for {@code store}.
     */
    static <T> T inTransaction(DataSource dataSource, String store, String action, Work<T> work) {
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = dataSource.getConnection()) {
                boolean autoCommit = connection.getAutoCommit();
                connection.setAutoCommit(false);
                try {
                    T result = work.run(connection);
                    connection.commit();
                    return result;
                } catch (SQLException | RuntimeException | Error e) {
                    rollbackQuietly(connection, e);
                    throw e;
                } finally {
                    restoreAutoCommit(connection, autoCommit);
                }
            } catch (SQLException e) {
                if (attempt < ATTEMPTS && RETRY_STATES.contains(e.getSQLState())) {
                    continue;
                }
                throw translate(store, action, e);
            }
        }
    }

    /** Runs {@code work} on a connection in auto-commit mode (single statements). */
    static <T> T autoCommit(DataSource dataSource, String store, String action, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw translate(store, action, e);
        }
    }

    /** The right unchecked exception for {@code e}. */
    static RuntimeException translate(String store, String action, SQLException e) {
        if (isUnavailable(e)) {
            return new StoreUnavailableException(store, action, e);
        }
        return new PostgresStoreException(store + ": " + action + " failed (SQL state " + e.getSQLState() + "): "
                + e.getMessage(), e);
    }

    /**
     * Whether {@code e} says the database could not answer: connection failures (SQL state class 08, and the
     * JDBC connection exception types connection pools throw when none can be had), shutdown and start-up
     * states, too many connections, a cancelled (timed-out) statement.
     */
    static boolean isUnavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException
                    || t instanceof SQLRecoverableException || t instanceof java.io.IOException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || UNAVAILABLE_STATES.contains(sql.getSQLState()))) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    static boolean isUniqueViolation(SQLException e) {
        return UNIQUE_VIOLATION.equals(e.getSQLState());
    }

    static OffsetDateTime toDb(Instant instant) {
        // Truncated here: the driver would round nanoseconds to PostgreSQL's microseconds, so an instant read back
        // could be a microsecond later than the one written and compare unequal to its own truncation.
        return OffsetDateTime.ofInstant(instant.truncatedTo(java.time.temporal.ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        if (value == null) {
            throw new SQLException("column " + column + " is null", "22004");
        }
        return value.toInstant();
    }

    static Optional<Instant> optionalInstant(ResultSet rs, String column) throws SQLException {
        return Optional.ofNullable(rs.getObject(column, OffsetDateTime.class)).map(OffsetDateTime::toInstant);
    }

    /** Binds {@code values} to {@code statement} in order. */
    static PreparedStatement bind(PreparedStatement statement, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            Object value = values[i];
            if (value instanceof Instant instant) {
                statement.setObject(i + 1, toDb(instant));
            } else {
                statement.setObject(i + 1, value);
            }
        }
        return statement;
    }

    private static void rollbackQuietly(Connection connection, Throwable cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }

    private static void restoreAutoCommit(Connection connection, boolean autoCommit) {
        try {
            connection.setAutoCommit(autoCommit);
        } catch (SQLException ignored) {
            // The connection is broken; the pool will discard it. The caller already has the real failure.
        }
    }
}
