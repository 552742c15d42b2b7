package dev.hotspare.postgres;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockKeys;
import dev.hotspare.fleet.lock.spi.LockStore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * {@link LockStore} on PostgreSQL. Every decision is one statement judged by the <b>database's</b> clock
 * ({@code clock_timestamp()}), never the caller's, so workers with skewed clocks agree on who holds a lock.
 *
 * <p>Fencing tokens come from the sequence {@code lease_fencing_tokens}, taken under the key's row lock at the
 * moment of the grant: strictly increasing for every key, across expiry, force-release and server restarts
 * (a sequence is durable; after a crash PostgreSQL may skip values but never repeats one). Each key keeps its
 * row after release (with {@code expires_at} moved to the release time), so the row always holds the key's
 * newest token.
 *
 * <p>Run {@link PostgresSchema#migrate} first. Thread-safe. Throws
 * {@link dev.hotspare.spi.StoreUnavailableException} while the database cannot answer; TTLs are rounded up
 * to whole microseconds.
 */
public final class PostgresLockStore implements LockStore {

    private static final String STORE = "postgres lock store";
    private static final String COLUMNS = "key, owner_token, fencing_token, acquired_at, expires_at";

    /** Every statement this store runs, over one schema. */
    private record Sql(String acquire, String renew, String release, String inspect, String list, String forceRelease) {
        static Sql in(String schema) {
            String t = schema + ".leases";
            String live = "expires_at > clock_timestamp()";
            return new Sql(
                    // A new key inserts; an existing one is taken over only if its lease has lapsed. The SET
                    // clause runs after the WHERE check under the row lock, so the token and times are taken at
                    // the moment of the grant.
                    "INSERT INTO " + t + " AS l (" + COLUMNS + ") "
                            + "VALUES (?, ?, nextval('" + schema + ".lease_fencing_tokens'), clock_timestamp(), "
                            + "clock_timestamp() + ? * interval '1 microsecond') "
                            + "ON CONFLICT (key) DO UPDATE SET owner_token = EXCLUDED.owner_token, "
                            + "fencing_token = nextval('" + schema + ".lease_fencing_tokens'), "
                            + "acquired_at = clock_timestamp(), expires_at = clock_timestamp() + ? * interval '1 microsecond' "
                            + "WHERE l.expires_at <= clock_timestamp() "
                            + "RETURNING " + COLUMNS,
                    "UPDATE " + t + " SET expires_at = clock_timestamp() + ? * interval '1 microsecond' "
                            + "WHERE key = ? AND owner_token = ? AND " + live + " RETURNING " + COLUMNS,
                    "UPDATE " + t + " SET expires_at = clock_timestamp() WHERE key = ? AND owner_token = ? AND " + live,
                    "SELECT " + COLUMNS + " FROM " + t + " WHERE key = ? AND " + live,
                    "SELECT " + COLUMNS + " FROM " + t + " WHERE starts_with(key, ?) AND " + live + " ORDER BY key COLLATE \"C\"",
                    "UPDATE " + t + " SET expires_at = clock_timestamp() WHERE key = ? AND " + live);
        }
    }

    private final DataSource dataSource;
    private final Sql sql;
    // Owner tokens need only be unique: a per-instance random id plus a counter is enough.
    private final String instanceId = UUID.randomUUID().toString();
    private final AtomicLong acquisitions = new AtomicLong();

    /**
     * A store in schema {@value PostgresSchema#DEFAULT_SCHEMA}.
     */
    public PostgresLockStore(DataSource dataSource) {
        this(dataSource, PostgresSchema.DEFAULT_SCHEMA);
    }

    /**
     * A store in {@code schema} (see {@link PostgresSchema#requireValidName}).
     */
    public PostgresLockStore(DataSource dataSource, String schema) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
        this.sql = Sql.in(PostgresSchema.requireValidName(schema));
    }

    @Override
    public Optional<Lease> tryAcquire(String key, Duration ttl) {
        LockKeys.requireValid(key);
        long micros = micros(LockStore.requirePositive(ttl));
        String owner = instanceId + "-" + acquisitions.incrementAndGet();
        return Jdbc.autoCommit(dataSource, STORE, "acquiring " + key, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.acquire()), key, owner, micros, micros)) {
                return one(ps);
            }
        });
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        long micros = micros(LockStore.requirePositive(ttl));
        return Jdbc.autoCommit(dataSource, STORE, "renewing " + lease.key(), c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.renew()), micros, lease.key(), lease.ownerToken())) {
                return one(ps);
            }
        });
    }

    @Override
    public boolean release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        return Jdbc.autoCommit(dataSource, STORE, "releasing " + lease.key(), c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.release()), lease.key(), lease.ownerToken())) {
                return ps.executeUpdate() == 1;
            }
        });
    }

    @Override
    public Optional<Lease> inspect(String key) {
        LockKeys.requireValid(key);
        return Jdbc.autoCommit(dataSource, STORE, "inspecting " + key, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.inspect()), key)) {
                return one(ps);
            }
        });
    }

    @Override
    public List<Lease> list(String prefix) {
        LockKeys.requireValidPrefix(prefix);
        return Jdbc.autoCommit(dataSource, STORE, "listing leases under '" + prefix + "'", c -> {
            List<Lease> out = new ArrayList<>();
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.list()), prefix); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(lease(rs));
                }
            }
            return List.copyOf(out);
        });
    }

    @Override
    public boolean forceRelease(String key) {
        LockKeys.requireValid(key);
        return Jdbc.autoCommit(dataSource, STORE, "force-releasing " + key, c -> {
            try (PreparedStatement ps = Jdbc.bind(c.prepareStatement(sql.forceRelease()), key)) {
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** The TTL in whole microseconds, rounded up (PostgreSQL timestamps have microsecond precision). */
    private static long micros(Duration ttl) {
        long micros = ttl.toNanos() / 1000;
        return ttl.toNanos() % 1000 == 0 ? micros : micros + 1;
    }

    private static Optional<Lease> one(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rs.next() ? Optional.of(lease(rs)) : Optional.empty();
        }
    }

    private static Lease lease(ResultSet rs) throws SQLException {
        return new Lease(rs.getString("key"), rs.getString("owner_token"), rs.getLong("fencing_token"),
                Jdbc.instant(rs, "acquired_at"), Jdbc.instant(rs, "expires_at"));
    }
}
