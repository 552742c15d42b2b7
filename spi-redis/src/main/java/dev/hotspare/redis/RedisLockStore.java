package dev.hotspare.redis;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockKeys;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.redis.internal.KeyLayout;
import dev.hotspare.redis.internal.RedisAccess;
import dev.hotspare.redis.internal.Scripts;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link LockStore} on Redis, through a connection the caller owns (this class never closes it).
 *
 * <p>Each operation is one round trip: acquire, renew and release are Lua scripts called by SHA; inspect
 * is one {@code GET}; force-release one {@code DEL}; list is a {@code SCAN} by pattern (never {@code KEYS})
 * followed by one pipelined batch of {@code GET}s. Expiry is Redis's own clock: the lease is a string set
 * with {@code PX} at the lease's TTL, and the scripts read {@code TIME}. Needs Redis 6.2 or later ({@code SET ... GET}).
 *
 * <h2>Fencing tokens across restarts</h2>
 * The acquire script issues {@code max(last token + 1, server TIME in microseconds)} and stores it as the
 * key's last token. While the server runs (or restarts <em>with</em> persistence) the stored counter alone
 * makes tokens increase. When it restarts <em>without</em> persistence the counter is gone, and the clock
 * term still makes the first token after the restart larger than every token before it — provided the
 * server's clock at that moment (in µs) is ahead of the last token issued before the restart. That holds
 * unless the server's clock stepped backwards across the restart (or a failover moved the key to a server
 * whose clock is behind) by more than the time the restart took; tokens only run ahead of the clock when
 * more than one acquisition of one key lands in the same microsecond. Tokens are epoch-microsecond sized
 * numbers (about 1.8e15), well within {@code long} and exact in Lua's doubles until the year 2255.
 *
 * <p>A restart without persistence also drops live leases: the holder's next {@link #renew} returns empty
 * and the next holder's token is larger, which is what fenced resources check.
 *
 * <p>Keys: see {@link RedisKeys}. Failures to reach Redis throw
 * {@link dev.hotspare.spi.StoreUnavailableException}. Thread-safe (Lettuce connections are).
 */
public final class RedisLockStore implements LockStore {

    private static final String STORE = "redis lock store";

    // A lease is one string, "<fencing token> <acquired ms> <lifetime ms> <owner token>" (expiry = acquired +
    // lifetime), set with PX: SET NX does the "is it free" check and the expiry in one command. The scripts
    // (lock-acquire.lua, lock-renew.lua, lock-release.lua in dev/hotspare/redis/lua) build every number from
    // TIME's digit strings and the caller's arguments.

    private final RedisAccess redis;
    private final KeyLayout keys;
    // Owner tokens must be unique among all holders of a key, in every process: a random instance id plus a
    // counter is, and costs far less than a UUID per acquisition.
    private final String instanceId = UUID.randomUUID() + "-";
    private final AtomicLong acquisitions = new AtomicLong();
    private static final int MAX_CACHED_KEYS = 10_000;
    private final ConcurrentMap<String, String[]> leaseKeys = new ConcurrentHashMap<>();

    /**
     * A lock store with keys under {@value RedisKeys#DEFAULT_PREFIX}.
     */
    public RedisLockStore(StatefulConnection<String, String> connection) {
        this(connection, RedisKeys.defaults());
    }

    /**
     * A lock store on {@code connection} (a {@code StatefulRedisConnection} for standalone, Sentinel or
     * master/replica, or a {@code StatefulRedisClusterConnection}) with keys laid out by {@code keys}.
     */
    public RedisLockStore(StatefulConnection<String, String> connection, RedisKeys keys) {
        this.redis = new RedisAccess(connection, STORE);
        this.keys = Objects.requireNonNull(keys, "keys").layout();
    }

    @Override
    public Optional<Lease> tryAcquire(String key, Duration ttl) {
        String[] leaseKeys = leaseKeys(key);
        long ttlMillis = millisRoundedUp(LockStore.requirePositive(ttl));
        String owner = instanceId + acquisitions.incrementAndGet();
        String granted = redis.eval("acquire ", key, Scripts.LOCK_ACQUIRE, ScriptOutputType.VALUE, leaseKeys, owner, Long.toString(ttlMillis));
        return granted == null ? Optional.empty() : Optional.of(lease(key, granted));
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        String[] leaseKeys = leaseKeys(lease.key());
        long ttlMillis = millisRoundedUp(LockStore.requirePositive(ttl));
        String renewed = redis.eval("renew ", lease.key(), Scripts.LOCK_RENEW, ScriptOutputType.VALUE,
                new String[] {leaseKeys[0]}, lease.ownerToken(), Long.toString(ttlMillis));
        return Optional.ofNullable(renewed).map(value -> lease.withExpiresAt(lease(lease.key(), value).expiresAt()));
    }

    @Override
    public boolean release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        String[] leaseKeys = leaseKeys(lease.key());
        Long removed = redis.eval("release ", lease.key(), Scripts.LOCK_RELEASE, ScriptOutputType.INTEGER,
                new String[] {leaseKeys[0]}, lease.ownerToken());
        return removed != null && removed == 1L;
    }

    @Override
    public Optional<Lease> inspect(String key) {
        LockKeys.requireValid(key);
        return Optional.ofNullable(redis.await("inspect " + key, redis.commands().get(keys.lease(key))))
                .map(value -> lease(key, value));
    }

    @Override
    public List<Lease> list(String prefix) {
        LockKeys.requireValidPrefix(prefix);
        String what = "list '" + prefix + "'";
        ScanArgs match = ScanArgs.Builder.matches(keys.leasePattern(prefix)).limit(500);
        List<String> lockKeys = new ArrayList<>();
        KeyScanCursor<String> cursor = redis.await(what, redis.commands().scan(match));
        while (true) {
            for (String found : cursor.getKeys()) {
                keys.lockKeyOf(found).filter(lockKey -> lockKey.startsWith(prefix)).ifPresent(lockKeys::add);
            }
            if (cursor.isFinished()) {
                break;
            }
            // The cursor itself goes back, not a copy of its value: on Redis Cluster it also says which node is next.
            cursor = redis.await(what, redis.commands().scan(cursor, match));
        }
        // One pipelined batch: every GET goes out before the first reply is awaited. (Not MGET: on a cluster
        // the leases live in different slots.)
        List<String> distinct = lockKeys.stream().distinct().toList();
        List<RedisFuture<String>> pending = new ArrayList<>(distinct.size());
        for (String lockKey : distinct) {
            pending.add(redis.commands().get(keys.lease(lockKey)));
        }
        List<Lease> live = new ArrayList<>();
        for (int i = 0; i < distinct.size(); i++) {
            String value = redis.await(what, pending.get(i));
            if (value != null) {
                // Gone between SCAN and GET means expired or released: not live, not listed.
                live.add(lease(distinct.get(i), value));
            }
        }
        live.sort(Comparator.comparing(Lease::key));
        return live;
    }

    @Override
    public boolean forceRelease(String key) {
        LockKeys.requireValid(key);
        // Only the lease hash goes: the fencing counter stays so the next holder still gets a larger token.
        Long removed = redis.await("force-release " + key, redis.commands().del(keys.lease(key)));
        return removed != null && removed > 0;
    }

    /**
     * The lease and fencing-counter keys of {@code key}, validating it on first sight. Lock keys are few (schedulers
     * × lock kinds), so remembering them saves a regex match and two string builds per call; the cache is emptied
     * when it grows past {@value #MAX_CACHED_KEYS} entries, in case a caller uses unbounded key sets.
     */
    private String[] leaseKeys(String key) {
        String[] cached = key == null ? null : leaseKeys.get(key);
        if (cached != null) {
            return cached;
        }
        LockKeys.requireValid(key);
        if (leaseKeys.size() >= MAX_CACHED_KEYS) {
            leaseKeys.clear();
        }
        String[] built = {keys.lease(key), keys.fence(key)};
        leaseKeys.put(key, built);
        return built;
    }

    /** Parses a lease value, {@code "<fencing token> <acquired ms> <lifetime ms> <owner token>"}. */
    private static Lease lease(String key, String value) {
        int first = value.indexOf(' ');
        int second = first < 0 ? -1 : value.indexOf(' ', first + 1);
        int third = second < 0 ? -1 : value.indexOf(' ', second + 1);
        try {
            if (third < 0 || third == value.length() - 1) {
                throw new NumberFormatException("four space-separated parts expected");
            }
            long acquired = Long.parseLong(value, first + 1, second, 10);
            return new Lease(key, value.substring(third + 1), Long.parseLong(value, 0, first, 10),
                    Instant.ofEpochMilli(acquired), Instant.ofEpochMilli(acquired + Long.parseLong(value, second + 1, third, 10)));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalStateException("redis lock store: the value under lock key '" + key
                    + "' is not a hotspare lease: '" + value + "'", e);
        }
    }

    /** Redis expires in whole milliseconds; rounding up keeps a lease at least as long as asked. */
    private static long millisRoundedUp(Duration ttl) {
        long millis = ttl.toMillis();
        return ttl.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
