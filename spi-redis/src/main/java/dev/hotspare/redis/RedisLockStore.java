package dev.hotspare.redis;

import dev.hotspare.spi.Lease;
import dev.hotspare.spi.LockKeys;
import dev.hotspare.spi.LockStore;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link LockStore} on Redis, through a connection the caller owns (this class never closes it).
 *
 * <p>Each operation is one round trip: acquire, renew and release are Lua scripts called by SHA; inspect
 * is one {@code HMGET}; force-release one {@code DEL}; list is a {@code SCAN} by pattern (never {@code KEYS})
 * followed by one pipelined batch of {@code HMGET}s. Expiry is Redis's own clock: the lease hash carries
 * {@code PEXPIREAT} at the lease's expiry, and the scripts read {@code TIME}.
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

    private static final LuaScript ACQUIRE = LuaScript.of("acquire", """
            -- KEYS[1] lease hash, KEYS[2] fencing counter; ARGV[1] owner token, ARGV[2] ttl in ms
            if redis.call('EXISTS', KEYS[1]) == 1 then
              return {}
            end
            local time = redis.call('TIME')
            local micros = tonumber(time[1]) * 1000000 + tonumber(time[2])
            local last = tonumber(redis.call('GET', KEYS[2]) or '0')
            -- The clock term keeps tokens growing when a restart without persistence lost the counter.
            local token = math.max(last + 1, micros)
            local acquired = math.floor(micros / 1000)
            local expires = acquired + tonumber(ARGV[2])
            local tokenText = string.format('%.0f', token)
            local acquiredText = string.format('%.0f', acquired)
            local expiresText = string.format('%.0f', expires)
            redis.call('SET', KEYS[2], tokenText)
            redis.call('HSET', KEYS[1], 'o', ARGV[1], 'f', tokenText, 'a', acquiredText, 'e', expiresText)
            redis.call('PEXPIREAT', KEYS[1], expires)
            return {tokenText, acquiredText, expiresText}
            """);

    private static final LuaScript RENEW = LuaScript.of("renew", """
            -- KEYS[1] lease hash; ARGV[1] owner token, ARGV[2] ttl in ms
            if redis.call('HGET', KEYS[1], 'o') ~= ARGV[1] then
              return false
            end
            local time = redis.call('TIME')
            local now = math.floor((tonumber(time[1]) * 1000000 + tonumber(time[2])) / 1000)
            local expires = string.format('%.0f', now + tonumber(ARGV[2]))
            redis.call('HSET', KEYS[1], 'e', expires)
            redis.call('PEXPIREAT', KEYS[1], expires)
            return expires
            """);

    private static final LuaScript RELEASE = LuaScript.of("release", """
            -- KEYS[1] lease hash; ARGV[1] owner token
            if redis.call('HGET', KEYS[1], 'o') == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0
            """);

    private final RedisAccess redis;
    private final RedisKeys keys;
    // Owner tokens must be unique among all holders of a key, in every process: a random instance id plus a
    // counter is, and costs far less than a UUID per acquisition.
    private final String instanceId = UUID.randomUUID().toString();
    private final AtomicLong acquisitions = new AtomicLong();

    /** A lock store with keys under {@value RedisKeys#DEFAULT_PREFIX}. */
    public RedisLockStore(StatefulConnection<String, String> connection) {
        this(connection, RedisKeys.defaults());
    }

    /**
     * A lock store on {@code connection} (a {@code StatefulRedisConnection} for standalone, Sentinel or
     * master/replica, or a {@code StatefulRedisClusterConnection}) with keys laid out by {@code keys}.
     */
    public RedisLockStore(StatefulConnection<String, String> connection, RedisKeys keys) {
        this.redis = new RedisAccess(connection, STORE);
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    @Override
    public Optional<Lease> tryAcquire(String key, Duration ttl) {
        LockKeys.requireValid(key);
        long ttlMillis = millisRoundedUp(LockStore.requirePositive(ttl));
        String owner = instanceId + "-" + acquisitions.incrementAndGet();
        List<String> granted = redis.eval("acquire " + key, ACQUIRE, ScriptOutputType.MULTI,
                new String[] {keys.lease(key), keys.fence(key)}, owner, Long.toString(ttlMillis));
        if (granted == null || granted.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Lease(key, owner, Long.parseLong(granted.get(0)),
                Instant.ofEpochMilli(Long.parseLong(granted.get(1))), Instant.ofEpochMilli(Long.parseLong(granted.get(2)))));
    }

    @Override
    public Optional<Lease> renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        LockKeys.requireValid(lease.key());
        long ttlMillis = millisRoundedUp(LockStore.requirePositive(ttl));
        String expires = redis.eval("renew " + lease.key(), RENEW, ScriptOutputType.VALUE,
                new String[] {keys.lease(lease.key())}, lease.ownerToken(), Long.toString(ttlMillis));
        return Optional.ofNullable(expires).map(e -> lease.withExpiresAt(Instant.ofEpochMilli(Long.parseLong(e))));
    }

    @Override
    public boolean release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        LockKeys.requireValid(lease.key());
        Long removed = redis.eval("release " + lease.key(), RELEASE, ScriptOutputType.INTEGER,
                new String[] {keys.lease(lease.key())}, lease.ownerToken());
        return removed != null && removed == 1L;
    }

    @Override
    public Optional<Lease> inspect(String key) {
        LockKeys.requireValid(key);
        return redis.await("inspect " + key, hmget(key)).flatMap(fields -> lease(key, fields));
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
                String lockKey = keys.lockKeyOf(found);
                if (lockKey != null && lockKey.startsWith(prefix)) {
                    lockKeys.add(lockKey);
                }
            }
            if (cursor.isFinished()) {
                break;
            }
            cursor = redis.await(what, redis.commands().scan(ScanCursor.of(cursor.getCursor()), match));
        }
        // One pipelined batch: every HMGET goes out before the first reply is awaited.
        List<java.util.concurrent.CompletableFuture<Optional<Lease>>> pending = new ArrayList<>();
        for (String lockKey : lockKeys.stream().distinct().toList()) {
            pending.add(hmget(lockKey).thenApply(fields -> fields.flatMap(f -> lease(lockKey, f))));
        }
        List<Lease> live = new ArrayList<>();
        for (var future : pending) {
            redis.await(what, future).ifPresent(live::add);
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

    private java.util.concurrent.CompletableFuture<Optional<List<String>>> hmget(String lockKey) {
        RedisFuture<List<io.lettuce.core.KeyValue<String, String>>> reply =
                redis.commands().hmget(keys.lease(lockKey), "o", "f", "a", "e");
        return reply.toCompletableFuture().thenApply(values -> {
            List<String> fields = new ArrayList<>(4);
            for (var value : values) {
                if (!value.hasValue()) {
                    return Optional.empty();
                }
                fields.add(value.getValue());
            }
            return Optional.of(fields);
        });
    }

    private static Optional<Lease> lease(String key, List<String> fields) {
        return Optional.of(new Lease(key, fields.get(0), Long.parseLong(fields.get(1)),
                Instant.ofEpochMilli(Long.parseLong(fields.get(2))), Instant.ofEpochMilli(Long.parseLong(fields.get(3)))));
    }

    /** Redis expires in whole milliseconds; rounding up keeps a lease at least as long as asked. */
    private static long millisRoundedUp(Duration ttl) {
        long millis = ttl.toMillis();
        return ttl.minusMillis(millis).isZero() ? millis : millis + 1;
    }
}
