package dev.hotspare.redis;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.spi.RoomStatusStore.RoomUpdate;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.testkit.servers.TestRedis;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reports issued without waiting share script calls: every report must still get exactly the outcome, previous
 * status and counts it gets when applied alone in issue order (the in-memory store is the reference), and any
 * other operation issued after them must be applied after them.
 */
class RoomReportBatchingTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final RoomStatus[] STATUSES = RoomStatus.values();

    private final RedisRoomStatusStore redis = new RedisRoomStatusStore(TestRedis.connection());

    private static String scheduler(String what) {
        return "batch-" + what + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt(1 << 24));
    }

    @Test
    void reportsIssuedTogetherGetTheRepliesOfSequentialReports() {
        String scheduler = scheduler("seq");
        InMemoryRoomStatusStore reference = new InMemoryRoomStatusStore();
        Random random = new Random(42);
        List<CompletableFuture<RoomUpdate>> pending = new ArrayList<>();
        List<RoomUpdate> expected = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String room = "r" + random.nextInt(12);
            RoomStatus status = STATUSES[random.nextInt(STATUSES.length)];
            // Mostly moving forward, sometimes back in time (stale), sometimes the same instant.
            Instant at = START.plusMillis(i * 10L - random.nextInt(40));
            int matches = random.nextInt(4);
            pending.add(redis.updateAsync(scheduler, room, status, at, matches));
            expected.add(reference.update(scheduler, room, status, at, matches));
            // Slots handed out and taken back between reports: applied after the reports issued before them.
            if (random.nextInt(10) == 0) {
                int slots = 1 + random.nextInt(4);
                assertThat(redis.allocate(scheduler, slots, at)).as("allocation after report %d", i)
                        .isEqualTo(reference.allocate(scheduler, slots, at));
            }
            if (random.nextInt(40) == 0) {
                Instant cutoff = at.minusMillis(random.nextInt(200));
                assertThat(redis.expireAllocations(scheduler, cutoff)).as("expiry after report %d", i)
                        .containsExactlyInAnyOrderElementsOf(reference.expireAllocations(scheduler, cutoff));
            }
        }
        for (int i = 0; i < pending.size(); i++) {
            assertThat(pending.get(i).join()).as("report %d", i).isEqualTo(expected.get(i));
        }
        assertThat(redis.counts(scheduler)).isEqualTo(reference.counts(scheduler));
        assertThat(redis.staleReports(scheduler)).isEqualTo(reference.staleReports(scheduler));
        for (RoomStatus status : STATUSES) {
            assertThat(redis.rooms(scheduler, status)).as("%s rooms", status).isEqualTo(reference.rooms(scheduler, status));
        }
        for (int r = 0; r < 12; r++) {
            assertThat(redis.room(scheduler, "r" + r)).isEqualTo(reference.room(scheduler, "r" + r));
        }
        for (int slots = 1; slots <= 4; slots++) {
            assertThat(redis.roomsWithFreeSlots(scheduler, slots, 20)).as("free slots of %d", slots)
                    .isEqualTo(reference.roomsWithFreeSlots(scheduler, slots, 20));
        }
        assertThat(redis.roomsWithPingAtOrBefore(scheduler, START.plusSeconds(3600)))
                .containsExactlyInAnyOrderElementsOf(reference.roomsWithPingAtOrBefore(scheduler, START.plusSeconds(3600)));
        assertThat(redis.roomsOccupiedAtOrBefore(scheduler, START.plusSeconds(3600)))
                .containsExactlyInAnyOrderElementsOf(reference.roomsOccupiedAtOrBefore(scheduler, START.plusSeconds(3600)));
        redis.removeScheduler(scheduler);
    }

    @Test
    void anOperationIssuedAfterReportsIsAppliedAfterThem() {
        String scheduler = scheduler("order");
        for (int round = 0; round < 50; round++) {
            List<CompletableFuture<RoomUpdate>> pending = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                pending.add(redis.updateAsync(scheduler, "r" + i, RoomStatus.READY, START.plusSeconds(round)));
            }
            // Issued before the reports are sent or answered: must still see them, and win over them.
            redis.remove(scheduler, "r19");
            assertThat(redis.room(scheduler, "r19")).isEmpty();
            assertThat(redis.room(scheduler, "r18")).isPresent();
            pending.forEach(CompletableFuture::join);
        }
        assertThat(redis.counts(scheduler).ready()).isEqualTo(19);
        redis.removeScheduler(scheduler);
    }

    @RepeatedTest(10)
    void threadsReportingTheirOwnRoomsEndInTheSameStateAsSequentialReports() throws Exception {
        String scheduler = scheduler("threads");
        InMemoryRoomStatusStore reference = new InMemoryRoomStatusStore();
        int threads = 8;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<List<String>>> mismatches = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                mismatches.add(executor.submit(() -> {
                    // Each thread owns its rooms, so the outcome and previous status of each report do not depend on
                    // how the threads interleave; the counts in the replies do, so they are only checked at the end.
                    InMemoryRoomStatusStore own = new InMemoryRoomStatusStore();
                    Random random = new Random(id);
                    List<CompletableFuture<RoomUpdate>> pending = new ArrayList<>();
                    List<RoomUpdate> expected = new ArrayList<>();
                    start.await();
                    for (int i = 0; i < 1_000; i++) {
                        String room = "t" + id + "-r" + random.nextInt(20);
                        RoomStatus status = STATUSES[random.nextInt(STATUSES.length)];
                        Instant at = START.plusMillis(i * 10L - random.nextInt(30));
                        pending.add(redis.updateAsync(scheduler, room, status, at));
                        expected.add(own.update(scheduler, room, status, at));
                        synchronized (reference) {
                            reference.update(scheduler, room, status, at);
                        }
                    }
                    List<String> wrong = new ArrayList<>();
                    for (int i = 0; i < pending.size(); i++) {
                        RoomUpdate got = pending.get(i).join();
                        if (got.outcome() != expected.get(i).outcome() || !got.previous().equals(expected.get(i).previous())) {
                            wrong.add("thread " + id + " report " + i + ": " + got + " != " + expected.get(i));
                        }
                    }
                    return wrong;
                }));
            }
            start.countDown();
            for (Future<List<String>> thread : mismatches) {
                assertThat(thread.get()).isEmpty();
            }
        } finally {
            executor.shutdownNow();
        }
        assertThat(redis.counts(scheduler)).isEqualTo(reference.counts(scheduler));
        assertThat(redis.staleReports(scheduler)).isEqualTo(reference.staleReports(scheduler));
        for (RoomStatus status : STATUSES) {
            assertThat(redis.rooms(scheduler, status)).as("%s rooms", status).isEqualTo(reference.rooms(scheduler, status));
        }
        redis.removeScheduler(scheduler);
    }
}
