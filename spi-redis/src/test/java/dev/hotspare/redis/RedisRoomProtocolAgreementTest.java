package dev.hotspare.redis;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.testkit.servers.TestRedis;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis scripts ({@code room-update}, {@code room-allocate}, {@code room-expire}, {@code room-remove}) are a copy
 * of core's {@link RoomProtocol} and allocation order: seeded random sequences of reports (stale, repeated, with
 * running matches), allocations, expiries and removals run through {@link RedisRoomStatusStore} and through the
 * in-memory store (which applies {@link RoomProtocol} itself), and every answer and every room's state after every
 * step are the same. The seed is in every message.
 */
class RedisRoomProtocolAgreementTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final RoomStatus[] REPORTED = {RoomStatus.CREATING, RoomStatus.READY, RoomStatus.OCCUPIED,
            RoomStatus.TERMINATING, RoomStatus.TERMINATED, RoomStatus.ALLOCATED};
    private static final List<String> ROOMS = List.of("r0", "r1", "r2", "r3", "r4");

    @Test
    void theRedisScriptsDecideExactlyAsRoomProtocol() {
        RoomStatusStore redis = new RedisRoomStatusStore(TestRedis.connection());
        for (long seed = 0; seed < 60; seed++) {
            Random r = new Random(seed);
            String scheduler = "agree-" + seed + "-" + Long.toHexString(java.util.concurrent.ThreadLocalRandom.current().nextLong() & Long.MAX_VALUE);
            RoomStatusStore memory = new InMemoryRoomStatusStore();
            Instant now = T0;
            for (int step = 0; step < 60; step++) {
                String why = "seed " + seed + ", step " + step;
                now = now.plusSeconds(r.nextInt(3));
                String room = ROOMS.get(r.nextInt(ROOMS.size()));
                int op = r.nextInt(10);
                if (op < 6) {
                    RoomStatus status = REPORTED[r.nextInt(REPORTED.length)];
                    // Now and then a report from the past (stale) or a multi-match room's count.
                    Instant at = r.nextInt(5) == 0 ? now.minusSeconds(1 + r.nextInt(5)) : now;
                    int matches = r.nextBoolean() ? RoomProtocol.defaultRunningMatches(status) : r.nextInt(4);
                    assertThat(attempt(() -> redis.update(scheduler, room, status, at, matches)))
                            .as(why + ": update " + room + " " + status + " " + matches)
                            .isEqualTo(attempt(() -> memory.update(scheduler, room, status, at, matches)));
                } else if (op < 8) {
                    int max = 1 + r.nextInt(3);
                    assertThat(redis.allocate(scheduler, max, now)).as(why + ": allocate " + max)
                            .isEqualTo(memory.allocate(scheduler, max, now));
                    assertThat(redis.roomsWithFreeSlots(scheduler, max, 10)).as(why + ": free slots " + max)
                            .isEqualTo(memory.roomsWithFreeSlots(scheduler, max, 10));
                } else if (op < 9) {
                    Instant cutoff = now.minusSeconds(r.nextInt(4));
                    assertThat(redis.expireAllocations(scheduler, cutoff).stream().sorted().toList()).as(why + ": expire")
                            .isEqualTo(memory.expireAllocations(scheduler, cutoff).stream().sorted().toList());
                } else {
                    assertThat(redis.remove(scheduler, room)).as(why + ": remove " + room).isEqualTo(memory.remove(scheduler, room));
                }
                assertThat(redis.counts(scheduler)).as(why + ": counts").isEqualTo(memory.counts(scheduler));
                for (String each : ROOMS) {
                    assertThat(redis.room(scheduler, each)).as(why + ": room " + each).isEqualTo(memory.room(scheduler, each));
                }
                for (RoomStatus status : RoomStatus.values()) {
                    assertThat(redis.rooms(scheduler, status).stream().sorted().toList()).as(why + ": rooms " + status)
                            .isEqualTo(memory.rooms(scheduler, status).stream().sorted().toList());
                }
            }
            redis.removeScheduler(scheduler);
        }
    }

    /** The answer, or the kind of refusal: both stores must refuse the same reports the same way. */
    private static Object attempt(java.util.function.Supplier<Object> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            return "refused: " + e.getClass().getSimpleName();
        }
    }
}
