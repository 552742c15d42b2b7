package dev.hotspare.spring.internal;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.redis.RedisKeys;
import dev.hotspare.redis.RedisLockStore;
import dev.hotspare.redis.RedisRoomStatusStore;
import dev.hotspare.redis.RedisUsageHistory;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.validation.ValidationException;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * {@code hotspare.store=redis}: one connection from the application's Lettuce {@link RedisClient} carries the
 * fleet's locks, room statuses and usage history. Redis keeps no pool claims and no members
 * ({@code hotspare-spi-redis} has no such stores), so pools on this store fail at startup with a message saying
 * so, unless the application defines its own {@code ClaimStore} bean.
 */
public final class RedisBackend implements Backend {

    private final StatefulRedisConnection<String, String> connection;
    private final RedisKeys keys;
    private final Duration healthTimeout;
    private final Supplier<MemberDriver> members;
    private volatile dev.hotspare.fleet.lock.spi.LockStore lockStore;

    /**
     * Opens one connection on {@code client}.
     *
     * @param client  the application's client
     * @param redis   {@code hotspare.redis.*}
     * @param members the in-memory member driver, made on first use
     * @throws HotspareConfigurationException when the key prefix is not valid or Redis cannot be reached
     */
    public RedisBackend(RedisClient client, HotspareProperties.Redis redis, Supplier<MemberDriver> members) {
        try {
            this.keys = RedisKeys.withPrefix(redis.getKeyPrefix());
        } catch (ValidationException e) {
            throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".redis.key-prefix", redis.getKeyPrefix(),
                    e.problems().get(0).message());
        }
        if (redis.getHealthTimeout().isNegative() || redis.getHealthTimeout().isZero()) {
            throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".redis.health-timeout",
                    redis.getHealthTimeout(), "must be a positive duration");
        }
        this.healthTimeout = redis.getHealthTimeout();
        this.members = members;
        try {
            this.connection = client.connect();
        } catch (RedisException e) {
            throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".store", "redis",
                    "cannot connect through the application's RedisClient: " + StoreCheck.reason(e));
        }
    }

    @Override
    public HotspareProperties.Store store() {
        return HotspareProperties.Store.REDIS;
    }

    @Override
    public ClaimStore claimStore() {
        throw new HotspareConfigurationException(HotspareProperties.PREFIX + ".store", "redis",
                "Redis keeps no pool claims (hotspare-spi-redis has lock, room status and usage history stores only);"
                        + " for pools use hotspare.store=postgres or memory, or define a ClaimStore bean");
    }

    @Override
    public MemberDriver memberDriver() {
        return members.get();
    }

    @Override
    public boolean durableClaims() {
        return false;
    }

    @Override
    public boolean durableMembers() {
        return false;
    }

    @Override
    public void configureFleet(Fleet.Builder builder) {
        builder.lockStore(sharedLockStore().orElseThrow())
                .roomStatusStore(new RedisRoomStatusStore(connection, keys))
                .usageHistory(new RedisUsageHistory(connection, keys));
    }

    @Override
    public StoreCheck check() {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("store", "redis");
        details.put("keyPrefix", keys.prefix());
        try {
            String answer = connection.async().ping().get(healthTimeout.toMillis(), TimeUnit.MILLISECONDS);
            details.put("ping", answer);
            return StoreCheck.up(details);
        } catch (TimeoutException e) {
            return StoreCheck.down(details, "no answer to PING within " + healthTimeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StoreCheck.down(details, "interrupted while waiting for PING");
        } catch (ExecutionException | RuntimeException e) {
            return StoreCheck.down(details, StoreCheck.reason(e));
        }
    }

    @Override
    public void close() {
        connection.close();
    }

    @Override
    public synchronized java.util.Optional<dev.hotspare.fleet.lock.spi.LockStore> sharedLockStore() {
        // One lock store for the fleet's locks and the membership leases: one client, one fencing history.
        if (lockStore == null) {
            lockStore = new RedisLockStore(connection, keys);
        }
        return java.util.Optional.of(lockStore);
    }
}
