package dev.hotspare.redis;

import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.time.TaskScheduler;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;

/** The Redis snippets of README.md and docs/redis.md; compiled, not run (the contract tests run the stores). */
final class RedisDocSnippets {

    private RedisDocSnippets() {
    }

    static void readme() {
        // snippet: README.md#3
        RedisClient client = RedisClient.create("redis://localhost:6379");
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)   // fail fast when Redis is down
                .timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(2))).build());
        StatefulRedisConnection<String, String> connection = client.connect();
        LockStore locks = new RedisLockStore(connection);
        RoomStatusStore rooms = new RedisRoomStatusStore(connection);
        UsageHistory history = new RedisUsageHistory(connection);
        // end snippet
    }

    static void redisMd(ScheduledExecutorService executor) {
        // snippet: docs/redis.md
        RedisClient client = RedisClient.create("redis://localhost:6379");   // Sentinel: redis-sentinel://..., TLS: rediss://...
        client.setOptions(ClientOptions.builder()
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS) // fail fast while Redis is down
                .timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(2)))
                .build());
        StatefulRedisConnection<String, String> connection = client.connect();  // one connection, shared by all threads

        LockStore locks = new RedisLockStore(connection);
        RoomStatusStore rooms = new RedisRoomStatusStore(connection);
        UsageHistory history = new RedisUsageHistory(connection, RedisKeys.withPrefix("maestro")); // optional key prefix
        LockManager lockManager = LockManager.builder().lockStore(locks).scheduler(TaskScheduler.system(executor, Clock.systemUTC())).build();
        // end snippet
    }
}
