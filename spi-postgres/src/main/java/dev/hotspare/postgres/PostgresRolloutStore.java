package dev.hotspare.postgres;

import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutStateJson;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.StaleRolloutVersionException;
import dev.hotspare.rollout.spi.VersionedRollout;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@link RolloutStore} on PostgreSQL: one row per rollout, the state as JSONB (the text of
 * {@link RolloutStateJson#write}) next to a version column. A save is a single conditional statement
 * ({@code UPDATE ... WHERE version = ?}, or {@code INSERT ... ON CONFLICT DO NOTHING} for version 0), so of
 * two concurrent saves with the same expected version exactly one matches a row.
 *
 * <p>Run {@link PostgresSchema#migrate} first. Thread-safe; each call borrows a connection from the data
 * source. Throws {@link dev.hotspare.spi.StoreUnavailableException} while the database cannot answer.
 */
public final class PostgresRolloutStore implements RolloutStore {

    private static final String STORE = "postgres rollout store";

    /** Every statement this store runs, over one schema. */
    private record Sql(String load, String insert, String update, String version, String names, String delete) {
        static Sql in(String schema) {
            String t = schema + ".rollouts";
            return new Sql(
                    "SELECT state::text AS state, version FROM " + t + " WHERE name = ?",
                    "INSERT INTO " + t + " (name, state, version) VALUES (?, ?::jsonb, 1) ON CONFLICT (name) DO NOTHING",
                    "UPDATE " + t + " SET state = ?::jsonb, version = version + 1 WHERE name = ? AND version = ?",
                    "SELECT version FROM " + t + " WHERE name = ?",
                    "SELECT name FROM " + t + " ORDER BY name COLLATE \"C\"",
                    "DELETE FROM " + t + " WHERE name = ?");
        }
    }

    private final DataSource dataSource;
    private final Sql sql;

    /** A store in schema {@value PostgresSchema#DEFAULT_SCHEMA}. */
    public PostgresRolloutStore(DataSource dataSource) {
        this(dataSource, PostgresSchema.DEFAULT_SCHEMA);
    }

    /** A store in {@code schema} (see {@link PostgresSchema#requireValidName}). */
    public PostgresRolloutStore(DataSource dataSource, String schema) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.sql = Sql.in(PostgresSchema.requireValidName(schema));
    }

    @Override
    public Optional<VersionedRollout> load(String name) {
        Objects.requireNonNull(name, "name");
        return Jdbc.autoCommit(dataSource, STORE, "loading rollout " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.load()), name); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new VersionedRollout(RolloutStateJson.read(rs.getString("state")), rs.getLong("version")));
            }
        });
    }

    @Override
    public long save(RolloutState state, long expectedVersion) {
        Objects.requireNonNull(state, "state");
        String name = state.name();
        String json = RolloutStateJson.write(state);
        long saved = Jdbc.autoCommit(dataSource, STORE, "saving rollout " + name, c -> {
            int rows;
            if (expectedVersion == 0) {
                try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.insert()), name, json)) {
                    rows = ps.executeUpdate();
                }
            } else {
                try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.update()), json, name, expectedVersion)) {
                    rows = ps.executeUpdate();
                }
            }
            return rows == 1 ? expectedVersion + 1 : -storedVersion(c, name) - 1;
        });
        if (saved < 0) {
            throw new StaleRolloutVersionException(name, expectedVersion, -saved - 1);
        }
        return saved;
    }

    @Override
    public List<String> names() {
        return Jdbc.autoCommit(dataSource, STORE, "listing rollouts", c -> {
            List<String> names = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql.names()); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
            return List.copyOf(names);
        });
    }

    @Override
    public boolean delete(String name) {
        Objects.requireNonNull(name, "name");
        return Jdbc.autoCommit(dataSource, STORE, "deleting rollout " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.delete()), name)) {
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** The stored version, 0 if none; read after a failed conditional save to say why it failed. */
    private long storedVersion(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.version()), name); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }
}
