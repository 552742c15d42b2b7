package dev.hotspare.redis;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.testkit.servers.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Scripts go out by SHA; when the server has forgotten them ({@code SCRIPT FLUSH}, restart) the stores reload them. */
class ScriptReloadTest {

    @Test
    void everyStoreRecoversFromAnEmptyScriptCache() {
        StatefulRedisConnection<String, String> connection = TestRedis.connection();
        RedisLockStore locks = new RedisLockStore(connection);
        RedisRoomStatusStore rooms = new RedisRoomStatusStore(connection);
        RedisUsageHistory history = new RedisUsageHistory(connection);
        String scheduler = "reload-" + Integer.toHexString(System.identityHashCode(this));
        String key = "reload." + scheduler;

        for (int round = 0; round < 2; round++) {
            connection.sync().scriptFlush();
            assertThat(locks.release(locks.tryAcquire(key, Duration.ofSeconds(5)).orElseThrow())).isTrue();
            connection.sync().scriptFlush();
            assertThat(rooms.updateAsync(scheduler, "r1", RoomStatus.READY, Instant.parse("2026-01-01T00:00:00Z").plusSeconds(round))
                    .join().outcome()).isEqualTo(RoomProtocol.Outcome.APPLIED);
            connection.sync().scriptFlush();
            history.record(scheduler, "room", BigDecimal.ONE, 3);
        }
        assertThat(history.latest(scheduler, "room", 5)).hasSize(2);
        rooms.removeScheduler(scheduler);
        history.clear(scheduler);
    }
}
