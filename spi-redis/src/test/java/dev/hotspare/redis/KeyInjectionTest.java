package dev.hotspare.redis;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.testkit.servers.TestRedis;
import dev.hotspare.validation.ValidationException;
import io.lettuce.core.api.StatefulRedisConnection;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Names that could reach outside the key layout (a {@code :} separator, a {@code {…}} hash tag, a {@code *}
 * SCAN glob, spaces or newlines) are rejected before any command reaches the server: the server's own
 * command counter proves nothing was sent.
 */
class KeyInjectionTest {

    private static final List<String> BAD = List.of("a:b", "x}:{y", "{evil}", "a{b", "a}b", "*", "a*", "a b",
            "a\nb", "a\r\nDEL x", ":", "");

    private static TestRedis.Server server;
    private static TestRedis.Client client;
    private static StatefulRedisConnection<String, String> storeConnection;
    private static StatefulRedisConnection<String, String> observer;

    @BeforeAll
    static void start() {
        server = TestRedis.Server.start(false);
        client = TestRedis.Client.create(server.uri());
        storeConnection = client.connect();
        observer = client.connect();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    private static long commandsProcessed() {
        String info = observer.sync().info("stats");
        return info.lines().filter(l -> l.startsWith("total_commands_processed:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElseThrow();
    }

    @Test
    void badNamesNeverReachTheServer() {
        RedisLockStore locks = new RedisLockStore(storeConnection);
        RedisRoomStatusStore rooms = new RedisRoomStatusStore(storeConnection);
        RedisUsageHistory history = new RedisUsageHistory(storeConnection);
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        List<ThrowingCallable> calls = new ArrayList<>();
        for (String bad : BAD) {
            Lease forged = new Lease(bad.isBlank() ? "x " : bad, "owner", 1, now, now.plusSeconds(1));
            calls.add(() -> locks.tryAcquire(bad, Duration.ofSeconds(1)));
            calls.add(() -> locks.inspect(bad));
            calls.add(() -> locks.forceRelease(bad));
            calls.add(() -> locks.list(bad + "."));
            calls.add(() -> locks.renew(forged, Duration.ofSeconds(1)));
            calls.add(() -> locks.release(forged));
            calls.add(() -> rooms.update(bad, "r1", RoomStatus.READY, now));
            calls.add(() -> rooms.update("pong", bad, RoomStatus.READY, now));
            calls.add(() -> rooms.updateAsync("pong", bad, RoomStatus.READY, now));
            calls.add(() -> rooms.ping("pong", bad, "ready", now));
            calls.add(() -> rooms.counts(bad));
            calls.add(() -> rooms.room("pong", bad));
            calls.add(() -> rooms.room(bad, "r1"));
            calls.add(() -> rooms.rooms(bad, RoomStatus.READY));
            calls.add(() -> rooms.roomsWithPingAtOrBefore(bad, now));
            calls.add(() -> rooms.roomsOccupiedAtOrBefore(bad, now));
            calls.add(() -> rooms.setRoomMetric("pong", bad, "cpu", 1));
            calls.add(() -> rooms.setRoomMetric("pong", "r1", bad, 1));
            calls.add(() -> rooms.roomsOrderedByMetric(bad, "cpu", 5));
            calls.add(() -> rooms.roomsOrderedByMetric("pong", bad, 5));
            calls.add(() -> rooms.remove("pong", bad));
            calls.add(() -> rooms.allocate(bad, 2, now));
            calls.add(() -> rooms.roomsWithFreeSlots(bad, 2, 5));
            calls.add(() -> rooms.expireAllocations(bad, now));
            calls.add(() -> rooms.removeScheduler(bad));
            calls.add(() -> rooms.staleReports(bad));
            calls.add(() -> history.record(bad, "room", BigDecimal.ONE, 5));
            calls.add(() -> history.record("pong", bad, BigDecimal.ONE, 5));
            calls.add(() -> history.latest("pong", bad, 5));
            calls.add(() -> history.clear(bad));
            calls.add(() -> RedisKeys.withPrefix(bad));
        }
        long before = commandsProcessed();

        for (ThrowingCallable call : calls) {
            assertThatThrownBy(call).isInstanceOf(ValidationException.class);
        }

        assertThat(commandsProcessed() - before).as("commands the server processed, besides the first INFO").isEqualTo(1);
        assertThat(observer.sync().dbsize()).isZero();
    }
}
