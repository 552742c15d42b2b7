package dev.hotspare.bench;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.redis.RedisRoomStatusStore;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.RunResult;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Room ping ingestion on one embedded redis-server from 8 threads sharing one Lettuce connection, each
 * pipelining {@value #BATCH} reports before awaiting them: {@link RedisRoomStatusStore#updateAsync} (the full
 * protocol script: staleness check, status sets, counts, ping and occupied indexes; reports issued while calls
 * are on the wire share a script call) against a raw pipelined
 * {@code SET} of the same number of keys. Each thread reports its {@value #ROOMS_PER_THREAD} rooms in passes;
 * {@code passesPerStatus} says how many passes keep a status before every room moves between ready and
 * occupied: 1 = every report is a status change (the worst case: status sets, counts and the occupied index
 * all move), 10 = nine keep-alives in ten (closer to a fleet, where rooms ping every few seconds and change
 * status once per match).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.RoomPingIngestionBenchmark}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RoomPingIngestionBenchmark {

    static final int BATCH = 100;
    static final int ROOMS_PER_THREAD = 1_000;

    /** One server and one shared connection. */
    @State(Scope.Benchmark)
    public static class Shared {
        EmbeddedRedis redis;
        StatefulRedisConnection<String, String> connection;
        RedisRoomStatusStore store;
        final AtomicInteger threadIds = new AtomicInteger();

        @Param({"1", "10"})
        public int passesPerStatus;

        @Setup(Level.Trial)
        public void setUp() {
            redis = EmbeddedRedis.start();
            connection = redis.client().connect();
            store = new RedisRoomStatusStore(connection);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            connection.close();
            redis.close();
        }
    }

    /** Each thread owns its rooms and its clock, so no report is ever stale. */
    @State(Scope.Thread)
    public static class PerThread {
        String[] rooms;
        String[] rawKeys;
        long sequence;
        final Instant start = Instant.parse("2026-01-01T00:00:00Z");

        @Setup(Level.Trial)
        public void setUp(Shared shared) {
            int id = shared.threadIds.incrementAndGet();
            rooms = new String[ROOMS_PER_THREAD];
            rawKeys = new String[ROOMS_PER_THREAD];
            for (int i = 0; i < ROOMS_PER_THREAD; i++) {
                rooms[i] = "t" + id + "-r" + i;
                rawKeys[i] = "bench:{pong}:raw:" + rooms[i];
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object roomPings(Shared shared, PerThread thread) {
        List<CompletableFuture<?>> pending = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            long n = thread.sequence++;
            int room = (int) (n % ROOMS_PER_THREAD);
            RoomStatus status = (n / ROOMS_PER_THREAD / shared.passesPerStatus) % 2 == 0 ? RoomStatus.READY : RoomStatus.OCCUPIED;
            pending.add(shared.store.updateAsync("pong", thread.rooms[room], status, thread.start.plusMillis(n)));
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public Object rawSet(Shared shared, PerThread thread) {
        List<CompletableFuture<?>> pending = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            long n = thread.sequence++;
            int room = (int) (n % ROOMS_PER_THREAD);
            RedisFuture<String> set = shared.connection.async().set(thread.rawKeys[room], (n / ROOMS_PER_THREAD / shared.passesPerStatus) % 2 == 0 ? "ready" : "occupied");
            pending.add(set.toCompletableFuture());
        }
        return CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
    }

    public static void main(String[] args) throws Exception {
        Collection<RunResult> results = Comparisons.run(Comparisons.options(RoomPingIngestionBenchmark.class).warmupIterations(6).threads(8));
        Comparisons.printRatios(results, "roomPings", "rawSet");
        System.out.println("TARGET: roomPings/rawSet >= 0.5x");
    }
}
