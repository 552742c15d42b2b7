package dev.hotspare.bench;

import dev.hotspare.fleet.RoomState.RoomStatus;
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
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load benchmark of the allocation call on one embedded {@code redis-server}, with churn: {@value #ALLOCATORS}
 * threads share one Lettuce connection; each allocates match slots with {@link RedisRoomStatusStore#allocate} (one
 * Lua script: the most used room with a free slot gets one more allocated slot), has the room report the match
 * running (a ping with one more running match), and, once it holds its share of {@value #LIVE_PERCENT}% of the
 * fleet's {@value #ROOMS} rooms × {@value #SLOTS} slots, ends one of its matches picked at random (the room reports
 * one match fewer) before it allocates again. Matches end and rooms are allocated again, in the gaps the ends leave,
 * so the fleet never simply fills up. Measured in the same run, the baseline is the same threads calling a script
 * that only returns 1: the round-trip floor of one atomic call.
 *
 * <p>Printed per round: allocations/s (each with its start and, in steady state, an end), baseline calls/s, their
 * ratio, the ratio against Agones' published ~400 allocations/s, rooms that ran more matches than slots (must be 0),
 * and packing: the rooms in use in Redis at the end against the rooms the same allocation policy needs when the
 * same event sequence (every allocation and every end, in the order they were recorded) is replayed sequentially in
 * memory — the sequential ideal; must be ≥ 95% — and against the lower bound ⌈live matches ÷ slots⌉.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.RedisAllocationLoadBenchmark}
 */
public final class RedisAllocationLoadBenchmark {

    static final int ALLOCATORS = 8;
    static final int ROOMS = 4_000;
    static final int SLOTS = 4;
    /** The share of all slots the allocators keep busy once filled: churn goes on below a full fleet. */
    static final int LIVE_PERCENT = 85;
    static final int SECONDS = 5;
    static final int ROUNDS = 3;
    /** Agones' published allocation throughput, allocations per second. */
    static final double AGONES = 400;

    private RedisAllocationLoadBenchmark() {
    }

    /** One timed run of a call: how many calls succeeded, and how long it took. */
    record Round(long calls, double seconds) {
        double rate() {
            return calls / seconds;
        }
    }

    /** What one churn round did: allocations, ends, the event log in recorded order, and the overbooked rooms. */
    record Churn(Round allocations, long ends, List<Long> events, List<String> matchRooms, int overbooked) {
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
            churn(store, "warmup", 500, now, 2, 0);
            run(() -> sync.<Long>evalsha(floor, ScriptOutputType.INTEGER) == 1, 2);
            for (int round = 1; round <= ROUNDS; round++) {
                String scheduler = "alloc-" + round;
                fill(store, scheduler, ROOMS, now);
                Churn churn = churn(store, scheduler, ROOMS, now, SECONDS, round);
                Round baseline = run(() -> sync.<Long>evalsha(floor, ScriptOutputType.INTEGER) == 1, SECONDS);
                report(round, churn, baseline, store.counts(scheduler));
                store.removeScheduler(scheduler);
            }
            System.out.println("TARGET: no room runs more matches than slots; packing >= 95% of the sequential ideal on the same events; "
                    + "allocations/s against Agones' ~400/s");
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

    /**
     * Allocates, starts and ends matches from every allocator for {@code seconds}. A room's reports go out under
     * that room's lock with an ever larger timestamp, as one room's own pings would, so the store sees them in order.
     */
    private static Churn churn(RedisRoomStatusStore store, String scheduler, int rooms, Instant now, int seconds, long seed)
            throws Exception {
        int share = rooms * SLOTS * LIVE_PERCENT / 100 / ALLOCATORS;
        Map<String, Integer> running = new ConcurrentHashMap<>();
        Object[] locks = new Object[1024];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new Object();
        }
        AtomicLong clock = new AtomicLong();
        AtomicLong ids = new AtomicLong();
        AtomicInteger overbooked = new AtomicInteger();
        ConcurrentLinkedQueue<Long> events = new ConcurrentLinkedQueue<>();
        Map<Long, String> roomOf = new ConcurrentHashMap<>();
        AtomicLong ends = new AtomicLong();
        java.util.function.BiConsumer<String, Integer> report = (room, delta) -> {
            synchronized (locks[Math.floorMod(room.hashCode(), locks.length)]) {
                int n = running.merge(room, delta, Integer::sum);
                if (n > SLOTS) {
                    overbooked.incrementAndGet();
                }
                store.update(scheduler, room, n > 0 ? RoomStatus.OCCUPIED : RoomStatus.READY,
                        now.plusMillis(clock.incrementAndGet()), n);
            }
        };
        Round allocations = runEach(new java.util.function.Supplier<java.util.concurrent.Callable<Boolean>>() {
            private final AtomicInteger thread = new AtomicInteger();

            @Override
            public java.util.concurrent.Callable<Boolean> get() {
                Random random = new Random(seed * 1_000 + thread.incrementAndGet());
                List<Long> live = new ArrayList<>();
                return () -> {
                    if (live.size() >= share) {
                        long ended = live.remove(random.nextInt(live.size()));
                        report.accept(roomOf.get(ended), -1);
                        events.add(-ended);
                        ends.incrementAndGet();
                    }
                    java.util.Optional<String> room = store.allocate(scheduler, SLOTS, now);
                    if (room.isEmpty()) {
                        return false; // the fleet filled up: the churn would have failed its purpose
                    }
                    long id = ids.incrementAndGet();
                    roomOf.put(id, room.get());
                    report.accept(room.get(), +1);
                    live.add(id);
                    events.add(id);
                    return true;
                };
            }
        }, seconds);
        List<Long> log = new ArrayList<>(events);
        List<String> matchRooms = new ArrayList<>();
        for (long i = 1; i <= ids.get(); i++) {
            matchRooms.add(roomOf.get(i));
        }
        return new Churn(allocations, ends.get(), log, matchRooms, overbooked.get());
    }

    /** Calls {@code call} from every allocator until one gets false (nothing left) or the time is up. */
    private static Round run(java.util.concurrent.Callable<Boolean> call, int seconds) throws Exception {
        return runEach(() -> call, seconds);
    }

    /** Each allocator gets its own call from {@code calls}; runs them until one returns false or the time is up. */
    private static Round runEach(java.util.function.Supplier<java.util.concurrent.Callable<Boolean>> calls, int seconds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(ALLOCATORS);
        CountDownLatch go = new CountDownLatch(1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong done = new AtomicLong();
        List<Future<?>> futures = new ArrayList<>();
        try {
            for (int t = 0; t < ALLOCATORS; t++) {
                java.util.concurrent.Callable<Boolean> call = calls.get();
                futures.add(pool.submit(() -> {
                    go.await();
                    while (!stop.get()) {
                        if (!call.call()) {
                            stop.set(true);
                            break;
                        }
                        done.incrementAndGet();
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
            return new Round(done.get(), (System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Rooms in use after replaying {@code events} sequentially with the store's policy (the most used room with a
     * free slot, then the lowest name): an allocation ({@code id > 0}) takes a slot, an end ({@code -id}) frees the
     * slot that allocation took in the replay.
     */
    static int sequentialIdeal(List<Long> events, int rooms) {
        int[] used = new int[rooms];
        List<java.util.TreeSet<String>> byUse = new ArrayList<>();
        for (int c = 0; c <= SLOTS; c++) {
            byUse.add(new java.util.TreeSet<>());
        }
        for (int i = 0; i < rooms; i++) {
            byUse.get(0).add("r" + i);
        }
        Map<Long, String> placed = new HashMap<>();
        for (long event : events) {
            if (event > 0) {
                for (int c = SLOTS - 1; c >= 0; c--) {
                    if (!byUse.get(c).isEmpty()) {
                        String room = byUse.get(c).pollFirst();
                        int index = Integer.parseInt(room.substring(1));
                        used[index]++;
                        byUse.get(used[index]).add(room);
                        placed.put(event, room);
                        break;
                    }
                }
            } else {
                String room = placed.remove(-event);
                int index = Integer.parseInt(room.substring(1));
                byUse.get(used[index]).remove(room);
                used[index]--;
                byUse.get(used[index]).add(room);
            }
        }
        int inUse = 0;
        for (int u : used) {
            inUse += u > 0 ? 1 : 0;
        }
        return inUse;
    }

    private static void report(int round, Churn churn, Round baseline, dev.hotspare.fleet.RoomStatusCounts counts) {
        Round allocation = churn.allocations();
        long live = allocation.calls() - churn.ends();
        int actual = counts.taken();
        int ideal = sequentialIdeal(churn.events(), ROOMS);
        long lowerBound = (live + SLOTS - 1) / SLOTS;
        double efficiency = actual == 0 ? 1 : (double) ideal / actual;
        System.out.printf("round %d: %d allocations and %d ends in %.2f s = %.0f allocations/s by %d allocators; %d matches live "
                        + "(%d%% of %d slots)%n", round, allocation.calls(), churn.ends(), allocation.seconds(), allocation.rate(),
                ALLOCATORS, live, Math.round(100.0 * live / (ROOMS * SLOTS)), ROOMS * SLOTS);
        System.out.printf("round %d: baseline (a script returning 1) = %.0f calls/s%n", round, baseline.rate());
        System.out.printf("RATIO RedisAllocationLoadBenchmark [round=%d, threads=%d]: allocations/s = %.0f, baseline calls/s = %.0f, "
                        + "allocate/baseline = %.2fx (higher is better; an allocation here is 2-3 calls: allocate, start, end); "
                        + "against Agones' ~%.0f/s = %.1fx%n", round, ALLOCATORS,
                allocation.rate(), baseline.rate(), allocation.rate() / baseline.rate(), AGONES, allocation.rate() / AGONES);
        System.out.printf("round %d: rooms that ran more matches than slots: %d; packing: %d rooms in use, sequential ideal on the "
                        + "same %d events %d = %.1f%%; lower bound %d = %.1f%%%n", round, churn.overbooked(), actual,
                churn.events().size(), ideal, efficiency * 100, lowerBound, actual == 0 ? 100 : 100.0 * lowerBound / actual);
        if (churn.overbooked() > 0 || efficiency < 0.95 || counts.usedSlots() != live) {
            throw new IllegalStateException("allocation broke its promise in round " + round + " (used slots in the store "
                    + counts.usedSlots() + ", live matches " + live + ")");
        }
    }
}
