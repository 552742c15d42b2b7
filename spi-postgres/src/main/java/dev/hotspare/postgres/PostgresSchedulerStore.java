package dev.hotspare.postgres;

import tools.jackson.core.JacksonException;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.lock.Fence.StaleFenceException;
import dev.hotspare.fleet.plan.ReleaseState;
import dev.hotspare.fleet.plan.ReleaseState.ReleaseStateJson;
import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException;
import dev.hotspare.fleet.spi.SchedulerStore.StaleReleaseException;
import dev.hotspare.fleet.spi.SchedulerStore.VersionedRelease;
import dev.hotspare.fleet.spi.VersionedScaleInputs;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.validation.Names;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@link SchedulerStore} on PostgreSQL — Maestro's source of truth: one row per scheduler (current version,
 * configuration as submitted and as JSONB, state, last scale) and one per release.
 *
 * <p>Every write after creation is one transaction that locks the scheduler row, checks its preconditions,
 * then records the fence in table {@code fences} (newest accepted token per lock key) with a conditional
 * upsert; a stale token throws {@link StaleFenceException} and the transaction rolls back, so nothing of the
 * write is applied. Fences live in the database, so they hold across processes and restarts.
 *
 * <p>Run {@link PostgresSchema#migrate} first. Thread-safe. Instants are stored with microsecond precision.
 * Throws {@link dev.hotspare.spi.StoreUnavailableException} while the database cannot answer.
 */
public final class PostgresSchedulerStore implements SchedulerStore {

    private static final String STORE = "postgres scheduler store";
    private static final String SCHEDULER_COLUMNS = "name, version_major, version_minor, config_submitted, "
            + "config::text AS config, state, state_last_changed_at, last_scale_at, created_at";
    private static final String RELEASE_COLUMNS = "version_major, version_minor, created_at, config_submitted, "
            + "config::text AS config, status, rolled_back_to_major, rolled_back_to_minor";

    /** Every statement this store runs, over one schema. */
    private record Sql(String insertScheduler, String insertRelease, String get, String list, String lockScheduler,
                       String updateVersion, String releases, String release, String setStatus, String setState,
                       String setLastScaleAt, String delete, String acceptFence, String newestToken,
                       String loadRelease, String insertReleaseState, String updateReleaseState,
                       String loadScaleInputs, String insertScaleInputs, String updateScaleInputs) {
        static Sql in(String schema) {
            String s = schema + ".schedulers";
            String r = schema + ".scheduler_releases";
            String f = schema + ".fences";
            return new Sql(
                    "INSERT INTO " + s + " (name, version_major, version_minor, config_submitted, config, state, "
                            + "state_last_changed_at, created_at) VALUES (?, ?, ?, ?, ?::jsonb, ?, ?, ?) "
                            + "ON CONFLICT (name) DO NOTHING",
                    "INSERT INTO " + r + " (scheduler, version_major, version_minor, created_at, config_submitted, config, status, "
                            + "rolled_back_to_major, rolled_back_to_minor) VALUES (?, ?, ?, ?, ?, ?::jsonb, ?, ?::integer, ?::integer)",
                    "SELECT " + SCHEDULER_COLUMNS + " FROM " + s + " WHERE name = ?",
                    "SELECT " + SCHEDULER_COLUMNS + " FROM " + s + " ORDER BY name COLLATE \"C\"",
                    "SELECT version_major, version_minor FROM " + s + " WHERE name = ? FOR UPDATE",
                    "UPDATE " + s + " SET version_major = ?, version_minor = ?, config_submitted = ?, config = ?::jsonb WHERE name = ?",
                    "SELECT " + RELEASE_COLUMNS + " FROM " + r + " WHERE scheduler = ? ORDER BY version_major, version_minor",
                    "SELECT " + RELEASE_COLUMNS + " FROM " + r + " WHERE scheduler = ? AND version_major = ? AND version_minor = ?",
                    "UPDATE " + r + " SET status = ? WHERE scheduler = ? AND version_major = ? AND version_minor = ?",
                    // The timestamp moves only when the state really changes.
                    "UPDATE " + s + " SET state_last_changed_at = CASE WHEN state = ? THEN state_last_changed_at ELSE ? END, "
                            + "state = ? WHERE name = ?",
                    "UPDATE " + s + " SET last_scale_at = ? WHERE name = ?",
                    "DELETE FROM " + s + " WHERE name = ?",
                    // Accepts the token if it is not older than the newest accepted one; returns no row otherwise.
                    "INSERT INTO " + f + " AS f (lock_key, newest_token) VALUES (?, ?) "
                            + "ON CONFLICT (lock_key) DO UPDATE SET newest_token = EXCLUDED.newest_token "
                            + "WHERE f.newest_token <= EXCLUDED.newest_token RETURNING newest_token",
                    "SELECT newest_token FROM " + f + " WHERE lock_key = ?",
                    "SELECT version, state::text AS state FROM " + schema + ".scheduler_release_state WHERE scheduler = ?",
                    "INSERT INTO " + schema + ".scheduler_release_state (scheduler, version, state) VALUES (?, 1, ?::jsonb)",
                    "UPDATE " + schema + ".scheduler_release_state SET version = version + 1, state = ?::jsonb "
                            + "WHERE scheduler = ? AND version = ?",
                    "SELECT version, inputs::text AS inputs FROM " + schema + ".scheduler_scale_inputs WHERE scheduler = ?",
                    "INSERT INTO " + schema + ".scheduler_scale_inputs (scheduler, version, inputs) VALUES (?, 1, ?::jsonb) "
                            + "ON CONFLICT (scheduler) DO NOTHING",
                    "UPDATE " + schema + ".scheduler_scale_inputs SET version = version + 1, inputs = ?::jsonb "
                            + "WHERE scheduler = ? AND version = ?");
        }
    }

    private final DataSource dataSource;
    private final Sql sql;

    /**
     * A store in schema {@value PostgresSchema#DEFAULT_SCHEMA}.
     */
    public PostgresSchedulerStore(DataSource dataSource) {
        this(dataSource, PostgresSchema.DEFAULT_SCHEMA);
    }

    /**
     * A store in {@code schema} (see {@link PostgresSchema#requireValidName}).
     */
    public PostgresSchedulerStore(DataSource dataSource, String schema) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.sql = Sql.in(PostgresSchema.requireValidName(schema));
    }

    @Override
    public boolean create(String name, ConfigDocument config, String initialState, Instant now) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(initialState, "initialState");
        Objects.requireNonNull(now, "now");
        SchedulerVersion v = SchedulerVersion.FIRST;
        return Jdbc.inTransaction(dataSource, STORE, "creating scheduler " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.insertScheduler()), name, v.major(), v.minor(),
                    config.submitted(), config.json(), initialState, now, now)) {
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.insertRelease()), name, v.major(), v.minor(), now,
                    config.submitted(), config.json(), OperationStatus.DEPLOYED.name(), null, null)) {
                ps.executeUpdate();
            }
            return true;
        });
    }

    @Override
    public Optional<SchedulerRecord> get(String name) {
        Names.requireDns1123Label("name", name);
        return Jdbc.autoCommit(dataSource, STORE, "reading scheduler " + name, c -> find(c, name));
    }

    @Override
    public List<SchedulerRecord> list() {
        return Jdbc.autoCommit(dataSource, STORE, "listing schedulers", c -> {
            List<SchedulerRecord> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(sql.list()); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(record(rs));
                }
            }
            return List.copyOf(out);
        });
    }

    @Override
    public SchedulerRecord saveVersion(String name, SchedulerVersion version, ConfigDocument config, Instant createdAt,
                                       Fence fence) {
        return save(name, version, Optional.empty(), config, createdAt, fence);
    }

    @Override
    public SchedulerRecord saveRollback(String name, SchedulerVersion version, SchedulerVersion rolledBackTo,
                                        ConfigDocument config, Instant createdAt, Fence fence) {
        return save(name, version, Optional.of(Objects.requireNonNull(rolledBackTo, "rolledBackTo")), config, createdAt, fence);
    }

    private SchedulerRecord save(String name, SchedulerVersion version, Optional<SchedulerVersion> rolledBackTo,
                                 ConfigDocument config, Instant createdAt, Fence fence) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(fence, "fence");
        return Jdbc.inTransaction(dataSource, STORE, "saving version " + version + " of scheduler " + name, c -> {
            SchedulerVersion current = lockExisting(c, name);
            if (version.compareTo(current) <= 0) {
                throw new IllegalArgumentException("version: bad value '" + version + "': must be newer than the current " + current);
            }
            accept(c, fence);
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.updateVersion()), version.major(), version.minor(),
                    config.submitted(), config.json(), name)) {
                ps.executeUpdate();
            }
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.insertRelease()), name, version.major(), version.minor(),
                    createdAt, config.submitted(), config.json(), OperationStatus.IN_PROGRESS.name(),
                    rolledBackTo.map(SchedulerVersion::major).orElse(null), rolledBackTo.map(SchedulerVersion::minor).orElse(null))) {
                ps.executeUpdate();
            }
            return find(c, name).orElseThrow(() -> new SchedulerNotFoundException(name));
        });
    }

    @Override
    public List<Release> releases(String name) {
        Names.requireDns1123Label("name", name);
        return Jdbc.autoCommit(dataSource, STORE, "reading releases of scheduler " + name, c -> {
            List<Release> out = new ArrayList<>();
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.releases()), name); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(release(rs));
                }
            }
            return List.copyOf(out);
        });
    }

    @Override
    public Optional<Release> release(String name, SchedulerVersion version) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(version, "version");
        return Jdbc.autoCommit(dataSource, STORE, "reading release " + version + " of scheduler " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.release()), name, version.major(), version.minor());
                 ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(release(rs)) : Optional.empty();
            }
        });
    }

    @Override
    public void setStatus(String name, SchedulerVersion version, OperationStatus status, Fence fence) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(fence, "fence");
        Jdbc.inTransaction(dataSource, STORE, "setting status of " + version + " of scheduler " + name, c -> {
            lockExisting(c, name);
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.release()), name, version.major(), version.minor());
                 ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalArgumentException("version: bad value '" + version + "': scheduler " + name + " has no such release");
                }
            }
            accept(c, fence);
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.setStatus()), status.name(), name, version.major(), version.minor())) {
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void setState(String name, String state, Instant now, Fence fence) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(now, "now");
        Objects.requireNonNull(fence, "fence");
        Jdbc.inTransaction(dataSource, STORE, "setting state of scheduler " + name, c -> {
            lockExisting(c, name);
            accept(c, fence);
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.setState()), state, now, state, name)) {
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void setLastScaleAt(String name, Instant at, Fence fence) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(fence, "fence");
        Jdbc.inTransaction(dataSource, STORE, "setting last scale of scheduler " + name, c -> {
            lockExisting(c, name);
            accept(c, fence);
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.setLastScaleAt()), at, name)) {
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public boolean delete(String name, Fence fence) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(fence, "fence");
        return Jdbc.inTransaction(dataSource, STORE, "deleting scheduler " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.lockScheduler()), name); ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
            }
            accept(c, fence);
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.delete()), name)) {
                ps.executeUpdate();
            }
            return true;
        });
    }

    @Override
    public Optional<VersionedRelease> loadRelease(String name) {
        Names.requireDns1123Label("name", name);
        return Jdbc.autoCommit(dataSource, STORE, "reading the release of scheduler " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.loadRelease()), name); ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new VersionedRelease(ReleaseStateJson.read(rs.getString("state")), rs.getLong("version")))
                        : Optional.empty();
            }
        });
    }

    @Override
    public long saveRelease(String name, ReleaseState state, long expectedVersion, Fence fence) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(fence, "fence");
        String json = ReleaseStateJson.write(state);
        return Jdbc.inTransaction(dataSource, STORE, "saving the release of scheduler " + name, c -> {
            // The scheduler row lock serialises every save of its release, so the version read below is the one updated.
            lockExisting(c, name);
            long stored = 0;
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.loadRelease()), name); ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    stored = rs.getLong("version");
                }
            }
            if (stored != expectedVersion) {
                throw new StaleReleaseException(name, expectedVersion, stored);
            }
            accept(c, fence);
            try (PreparedStatement ps = expectedVersion == 0
                    ? Jdbc.bind(c.prepareStatement(sql.insertReleaseState()), name, json)
                    : Jdbc.bind(c.prepareStatement(sql.updateReleaseState()), json, name, expectedVersion)) {
                ps.executeUpdate();
            }
            return expectedVersion + 1;
        });
    }

    @Override
    public VersionedScaleInputs loadScaleInputs(String name) {
        Names.requireDns1123Label("name", name);
        return Jdbc.autoCommit(dataSource, STORE, "reading the scale inputs of scheduler " + name, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.loadScaleInputs()), name); ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new VersionedScaleInputs(ScaleInputs.fromJson(rs.getString("inputs")), rs.getLong("version"))
                        : VersionedScaleInputs.NONE;
            }
        });
    }

    @Override
    public boolean saveScaleInputs(String name, ScaleInputs inputs, long expectedVersion) {
        Names.requireDns1123Label("name", name);
        Objects.requireNonNull(inputs, "inputs");
        String json = inputs.toJson();
        return Jdbc.inTransaction(dataSource, STORE, "saving the scale inputs of scheduler " + name, c -> {
            lockExisting(c, name);
            // One conditional statement: the insert finds no row only when none is stored, the update only the expected version.
            try (PreparedStatement ps = expectedVersion == 0
                    ? Jdbc.bind(c.prepareStatement(sql.insertScaleInputs()), name, json)
                    : Jdbc.bind(c.prepareStatement(sql.updateScaleInputs()), json, name, expectedVersion)) {
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** Locks the scheduler row for this transaction and returns its current version. */
    private SchedulerVersion lockExisting(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.lockScheduler()), name); ResultSet rs = ps.executeQuery()) {
            if (!rs.next()) {
                throw new SchedulerNotFoundException(name);
            }
            return new SchedulerVersion(rs.getInt("version_major"), rs.getInt("version_minor"));
        }
    }

    /** Records {@code fence} as accepted, or throws {@link StaleFenceException} (the caller's transaction rolls back). */
    private void accept(Connection c, Fence fence) throws SQLException {
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.acceptFence()), fence.lockKey(), fence.token());
             ResultSet rs = ps.executeQuery()) {
            if (rs.next()) {
                return;
            }
        }
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.newestToken()), fence.lockKey()); ResultSet rs = ps.executeQuery()) {
            rs.next();
            throw new StaleFenceException(fence, rs.getLong(1));
        }
    }

    private Optional<SchedulerRecord> find(Connection c, String name) throws SQLException {
        try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.get()), name); ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(record(rs)) : Optional.empty();
        }
    }

    private static SchedulerRecord record(ResultSet rs) throws SQLException {
        return new SchedulerRecord(rs.getString("name"),
                new SchedulerVersion(rs.getInt("version_major"), rs.getInt("version_minor")),
                config(rs), rs.getString("state"), Jdbc.instant(rs, "state_last_changed_at"),
                Jdbc.optionalInstant(rs, "last_scale_at"), Jdbc.instant(rs, "created_at"));
    }

    private static Release release(ResultSet rs) throws SQLException {
        int rolledBackMajor = rs.getInt("rolled_back_to_major");
        Optional<SchedulerVersion> rolledBackTo = rs.wasNull() ? Optional.empty()
                : Optional.of(new SchedulerVersion(rolledBackMajor, rs.getInt("rolled_back_to_minor")));
        return new Release(new SchedulerVersion(rs.getInt("version_major"), rs.getInt("version_minor")),
                Jdbc.instant(rs, "created_at"), config(rs), OperationStatus.valueOf(rs.getString("status")), rolledBackTo);
    }

    /** The stored document; JSONB prints with spaces, so the JSON form is re-compacted. */
    private static ConfigDocument config(ResultSet rs) throws SQLException {
        String jsonb = rs.getString("config");
        try {
            return new ConfigDocument(rs.getString("config_submitted"), Documents.jsonReader().readTree(jsonb).toString());
        } catch (JacksonException e) {
            throw new SQLException("config column does not hold JSON: " + e.getOriginalMessage(), "22P02", e);
        }
    }
}
