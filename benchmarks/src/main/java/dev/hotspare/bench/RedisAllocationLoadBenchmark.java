package dev.hotspare.bench;

import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.redis.RedisRoomStatusStore;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Load benchmark of the allocation call on one embedded {@code redis-server}: {@value #ALLOCATORS} threads share
 * one Lettuce connection and call {@link RedisRoomStatusStore#allocate} (one Lua script: the most used room with a
 * free slot gets one more allocated slot) as fast as they can, each waiting for its answer, until every slot of
 * {@value #ROOMS} rooms × {@value #SLOTS} is handed out or {@value #SECONDS} s pass. Measured in the same run, the
 * baseline is the same threads calling a script that only returns 1: the round-trip floor of one atomic call.
 * Printed per round: allocations/s, baseline calls/s, their ratio, the ratio against Agones' published ~400
 * allocations/s, slots handed out twice (must be 0) and packing efficiency (rooms an ideal sequential packing needs ÷
 * rooms used; must be ≥ 95%).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.RedisAllocationLoadBenchmark}
 */
public final class RedisAllocationLoadBenchmark {

    static final int ALLOCATORS = 8;
    static final int ROOMS = 40_000;
    static final int SLOTS = 4;
    static final int SECONDS = 5;
    static final int ROUNDS = 3;
    /** Agones' published allocation throughput, allocations per second. */
    static final double AGONES = 400;

    private RedisAllocationLoadBenchmark() {
    }

    /** One timed run: what each allocator got, and how long it took. */
    record Round(List<String> granted, double seconds) {
        double rate() {
            return granted.size() / seconds;
        }
    }

    public static void main(String[] args) throws Exception {
        try (EmbeddedRedis redis = EmbeddedRedis.start();
             StatefulRedisConnection<String, String> connection = redis.client().connect()) {
            RedisRoomStatusStore store = new RedisRoomStatusStore(connection);
            RedisCommands<String, String> sync = connection.sync();
            String floor = sync.scriptLoad("return 1");
            Instant now = Instant.parse("2026-01-01T00:00:00Z");
            // Warm-up: a small fleet, then one round of each.
            fill(store, "warmup", 500, now);
            run(() -> store.allocate("warmup", SLOTS, now).orElse(null), 2);
            run(() -> sync.<Long>evalsha(floor, ScriptOutputType.INTEGER) == 1 ? "x" : null, 2);
            for (int round = 1; round <= ROUNDS; round++) {
                String scheduler = "alloc-" + round;
                fill(store, scheduler, ROOMS, now);
                Round allocation = run(() -> store.allocate(scheduler, SLOTS, now).orElse(null), SECONDS);
                Round baseline = run(() -> sync.<Long>evalsha(floor, ScriptOutputType.INTEGER) == 1 ? "x" : null,
                        SECONDS);
                report(round, allocation, baseline);
                store.removeScheduler(scheduler);
            }
            System.out.println("TARGET: allocations never share a slot; packing efficiency >= 95%; allocations/s against Agones' ~400/s");
        }
    }

    /** {@code rooms} ready rooms, reported in batches. */
    private static void fill(RedisRoomStatusStore store, String scheduler, int rooms, Instant now) {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        for (int i = 0; i < rooms; i++) {
            pending.add(store.updateAsync(scheduler, "r" + i, RoomStatus.READY, now, 0));
        }
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
    }

    /** Calls {@code call} from every allocator until one gets null (nothing left) or the time is up. */
    private static Round run(java.util.concurrent.Callable<String> call, int seconds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(ALLOCATORS);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        List<List<String>> perThread = new ArrayList<>();
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < ALLOCATORS; t++) {
                List<String> mine = new ArrayList<>();
                perThread.add(mine);
                futures.add(pool.submit(() -> {
                    go.await();
                    while (!stop.get()) {
                        String got = call.call();
                        if (got == null) {
                            stop.set(true);
                            break;
                        }
                        mine.add(got);
                    }
                    return null;
                }));
            }
            long start = System.nanoTime();
            go.countDown();
            long deadline = start + seconds * 1_000_000_000L;
            while (!stop.get() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            stop.set(true);
            for (Future<?> f : futures) {
                f.get();
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            List<String> all = new ArrayList<>();
            perThread.forEach(all::addAll);
            return new Round(all, elapsed);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void report(int round, Round allocation, Round baseline) {
        Map<String, Integer> perRoom = new HashMap<>();
        allocation.granted().forEach(room -> perRoom.merge(room, 1, Integer::sum));
        long twice = perRoom.values().stream().filter(n -> n > SLOTS).count();
        int ideal = (allocation.granted().size() + SLOTS - 1) / SLOTS;
        double efficiency = perRoom.isEmpty() ? 1 : (double) ideal / perRoom.size();
        System.out.printf("round %d: %d allocations in %.2f s = %.0f allocations/s by %d allocators%n", round,
                allocation.granted().size(), allocation.seconds(), allocation.rate(), ALLOCATORS);
        System.out.printf("round %d: baseline (a script returning 1) = %.0f calls/s%n", round, baseline.rate());
        System.out.printf("RATIO RedisAllocationLoadBenchmark [round=%d, threads=%d]: allocations/s = %.0f, baseline calls/s = %.0f, "
                        + "allocate/baseline = %.2fx (higher is better); against Agones' ~%.0f/s = %.1fx%n", round, ALLOCATORS,
                allocation.rate(), baseline.rate(), allocation.rate() / baseline.rate(), AGONES, allocation.rate() / AGONES);
        System.out.printf("round %d: rooms with a slot handed out twice: %d; packing efficiency: %d rooms used, ideal %d = %.1f%%%n",
                round, twice, perRoom.size(), ideal, efficiency * 100);
        if (twice > 0 || efficiency < 0.95) {
            throw new IllegalStateException("allocation broke its promise in round " + round);
        }
    }
}
