package dev.hotspare.bench;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.redis.RedisLockStore;
import io.lettuce.core.api.StatefulRedisConnection;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.RunResult;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Lock acquire + release cycles per second on one embedded redis-server, 1 and 8 threads (one key per
 * thread, so the cost measured is the round trips and the scripts, not waiting): {@link RedisLockStore}
 * ({@code tryAcquire} + {@code release}: two script calls) against Redisson's {@code RLock}
 * ({@code tryLock(0, ttl)} + {@code unlock}), and the physical floor: {@code PING} round trips on the same
 * kind of Lettuce connection the store uses. A cycle needs two round trips, so {@code cycles/ping ≈ 0.5}
 * is the ceiling.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.RedisLockBenchmark}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class RedisLockBenchmark {

    private static final Duration TTL = Duration.ofSeconds(30);

    /** One server, one shared Lettuce connection (as a worker process would have) and one Redisson client. */
    @State(Scope.Benchmark)
    public static class Shared {
        EmbeddedRedis redis;
        StatefulRedisConnection<String, String> connection;
        RedisLockStore store;
        RedissonClient redisson;
        final AtomicInteger threadIds = new AtomicInteger();

        @Setup(Level.Trial)
        public void setUp() {
            redis = EmbeddedRedis.start();
            connection = redis.client().connect();
            store = new RedisLockStore(connection);
            Config config = new Config();
            config.useSingleServer().setAddress(redis.uri());
            redisson = Redisson.create(config);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            redisson.shutdown();
            connection.close();
            redis.close();
        }
    }

    /** Per-thread lock names. */
    @State(Scope.Thread)
    public static class PerThread {
        String key;
        RLock rlock;

        @Setup(Level.Trial)
        public void setUp(Shared shared) {
            int id = shared.threadIds.incrementAndGet();
            key = "bench.lock.t" + id;
            rlock = shared.redisson.getLock("bench-redisson-t" + id);
        }
    }

    @Benchmark
    public long redisLockStore(Shared shared, PerThread thread) {
        Lease lease = shared.store.tryAcquire(thread.key, TTL).orElseThrow();
        shared.store.release(lease);
        return lease.fencingToken();
    }

    @Benchmark
    public boolean redisson(PerThread thread) throws InterruptedException {
        boolean locked = thread.rlock.tryLock(0, TTL.toSeconds(), TimeUnit.SECONDS);
        if (!locked) {
            throw new IllegalStateException("the thread's own lock was taken");
        }
        thread.rlock.unlock();
        return locked;
    }

    @Benchmark
    public String ping(Shared shared) {
        return shared.connection.sync().ping();
    }

    public static void main(String[] args) throws Exception {
        List<RunResult> results = new ArrayList<>();
        for (int threads : new int[] {1, 8}) {
            // Lettuce's and Netty's paths keep getting faster well past the default 3 s of warm-up.
            results.addAll(Comparisons.run(Comparisons.options(RedisLockBenchmark.class).warmupIterations(6).threads(threads)));
        }
        Comparisons.printRatios(results, "redisLockStore", "redisson");
        Comparisons.printRatios(results, "redisLockStore", "ping");
        for (int threads : new int[] {1, 8}) {
            double cycles = score(results, "redisLockStore", threads);
            double redisson = score(results, "redisson", threads);
            double pings = score(results, "ping", threads);
            System.out.printf("TARGET [threads=%d]: vs Redisson %.2fx (target >= 1.5x); cycles / (PING rate / 2) = %.2f (target >= 0.8)%n",
                    threads, cycles / redisson, cycles / (pings / 2));
        }
    }

    private static double score(List<RunResult> results, String method, int threads) {
        return results.stream()
                .filter(r -> r.getParams().getThreads() == threads && r.getParams().getBenchmark().endsWith("." + method))
                .mapToDouble(r -> r.getPrimaryResult().getScore()).findFirst().orElse(Double.NaN);
    }
}
