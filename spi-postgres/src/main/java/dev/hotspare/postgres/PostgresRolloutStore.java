package dev.hotspare.postgres;

import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.RolloutStateJson;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.RolloutStore.RolloutConflictException;
import dev.hotspare.rollout.spi.RolloutStore.RolloutInProgressException;
import dev.hotspare.rollout.spi.RolloutStore.StaleRolloutVersionException;
import dev.hotspare.rollout.spi.RolloutStore.VersionedRollout;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * {@link RolloutStore} on PostgreSQL: one row per rollout, the state as JSONB (the text of
 * {@link RolloutStateJson#write}) next to a version column, and one row per target a rollout in progress holds
 * in {@code rollout_targets}, whose primary key is the target. A save is one transaction: a conditional write
 * of the state ({@code UPDATE ... WHERE version = ?}, or {@code INSERT ... ON CONFLICT DO NOTHING} for version
 * 0), so of two concurrent saves with the same expected version exactly one matches a row; then the held
 * targets are brought in line with {@link RolloutState#coveredTargets()} ({@code INSERT ... ON CONFLICT DO
 * NOTHING} in target order, so concurrent claimers queue on the same rows in the same order and never deadlock),
 * and if another rollout holds any of them the transaction rolls back with a {@link RolloutConflictException}.
 *
 * <p>Run {@link PostgresSchema#migrate} first. Thread-safe; each call borrows a connection from the data
 * source. Throws {@link dev.hotspare.spi.StoreUnavailableException} while the database cannot answer.
 */
public final class PostgresRolloutStore implements RolloutStore {

    private static final String STORE = "postgres rollout store";

    /** Every statement this store runs, over one schema. */
    private record Sql(String load, String insert, String update, String version, String names, String lockForDelete,
                       String delete, String release, String claim, String heldByOthers) {
        static Sql in(String schema) {
            String t = schema + ".rollouts";
            String targets = schema + ".rollout_targets";
            return new Sql(
                    "SELECT state::text AS state, version FROM " + t + " WHERE name = ?",
                    "INSERT INTO " + t + " (name, state, version, in_progress) VALUES (?, ?::jsonb, 1, ?) ON CONFLICT (name) DO NOTHING",
                    "UPDATE " + t + " SET state = ?::jsonb, version = version + 1, in_progress = ? WHERE name = ? AND version = ?",
                    "SELECT version FROM " + t + " WHERE name = ?",
                    "SELECT name FROM " + t + " ORDER BY name COLLATE \"C\"",
                    "SELECT in_progress, state -> 'state' ->> 'phase' AS phase FROM " + t + " WHERE name = ? FOR UPDATE",
                    "DELETE FROM " + t + " WHERE name = ?",
                    "DELETE FROM " + targets + " WHERE rollout = ? AND NOT (target = ANY (?))",
                    "INSERT INTO " + targets + " (target, rollout) SELECT held, ? FROM unnest(?::text[]) AS held"
                            + " ORDER BY held COLLATE \"C\" ON CONFLICT (target) DO NOTHING",
                    "SELECT target, rollout FROM " + targets + " WHERE target = ANY (?) AND rollout <> ?"
                            + " ORDER BY rollout COLLATE \"C\", target COLLATE \"C\"");
        }
    }

    private final DataSource dataSource;
    private final Sql sql;

    /**
     * A store in schema {@value PostgresSchema#DEFAULT_SCHEMA}.
     *
     * @param dataSource where to connect
     */
    public PostgresRolloutStore(DataSource dataSource) {
        this(dataSource, PostgresSchema.DEFAULT_SCHEMA);
    }

    /**
     * A store in {@code schema} (see {@link PostgresSchema#requireValidName}).
     *
     * @param dataSource where to connect
     * @param schema     the schema hotspare's tables are in
     */
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
        boolean inProgress = !state.terminal();
        String[] covered = state.coveredTargets().stream().map(PostgresRolloutStore::key).toArray(String[]::new);
        return Jdbc.inTransaction(dataSource, STORE, "saving rollout " + name, c -> {
            int rows;
            if (expectedVersion == 0) {
                try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.insert()), name, json, inProgress)) {
                    rows = ps.executeUpdate();
                }
            } else {
                try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.update()), json, inProgress, name, expectedVersion)) {
                    rows = ps.executeUpdate();
                }
            }
            if (rows != 1) {
                throw new StaleRolloutVersionException(name, expectedVersion, storedVersion(c, name));
            }
            Array held = c.createArrayOf("text", covered);
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.release()), name, held)) {
                ps.executeUpdate();
            }
            if (covered.length > 0) {
                try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.claim()), name, held)) {
                    ps.executeUpdate();
                }
                Map<String, List<TargetRef>> conflicts = new TreeMap<>();
                try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.heldByOthers()), held, name);
                     ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        conflicts.computeIfAbsent(rs.getString("rollout"), r -> new ArrayList<>()).add(ref(rs.getString("target")));
                    }
                }
                if (!conflicts.isEmpty()) {
                    // Rolls the whole save back: the state and the targets it did take.
                    throw new RolloutConflictException(name, conflicts);
                }
            }
            return expectedVersion + 1;
        });
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
        return Jdbc.inTransaction(dataSource, STORE, "deleting rollout " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.lockForDelete()), name); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
                if (rs.getBoolean("in_progress")) {
                    throw new RolloutInProgressException(name, Phase.valueOf(rs.getString("phase")));
                }
            }
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

    /** A target's key in {@code rollout_targets}: {@code device/nic-07} (names are DNS-1123 labels: no '/'). */
    private static String key(TargetRef target) {
        return target.kind().name().toLowerCase(Locale.ROOT) + "/" + target.name();
    }

    private static TargetRef ref(String key) {
        int slash = key.indexOf('/');
        return new TargetRef(TargetKind.valueOf(key.substring(0, slash).toUpperCase(Locale.ROOT)), key.substring(slash + 1));
    }
}
