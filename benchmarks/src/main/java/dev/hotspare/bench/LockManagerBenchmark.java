package dev.hotspare.bench;

import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.time.TaskScheduler;
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

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Acquire + release cycles through {@link LockManager} on the in-memory store (one scheduler's CONFIG lock
 * per thread, so the cost measured is the protocol — key building, store call, renewal timer set-up and
 * cancellation, release — not waiting), against a {@link ReentrantLock} lock/unlock per thread as the
 * baseline, with 1 and 8 threads.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.LockManagerBenchmark}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class LockManagerBenchmark {

    /** One manager and store shared by all threads, as in a worker process. */
    @State(Scope.Benchmark)
    public static class Shared {
        ScheduledExecutorService executor;
        LockManager locks;
        final AtomicInteger threadIds = new AtomicInteger();

        @Setup(Level.Trial)
        public void setUp() {
            // Remove-on-cancel keeps the queue from filling with the cancelled renewal timers of released locks.
            ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1);
            pool.setRemoveOnCancelPolicy(true);
            executor = pool;
            Clock clock = Clock.systemUTC();
            locks = LockManager.builder().lockStore(new InMemoryLockStore(clock)).scheduler(TaskScheduler.system(executor, clock)).build();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            executor.shutdownNow();
        }
    }

    /** Per-thread lock identity. */
    @State(Scope.Thread)
    public static class PerThread {
        LockId id;
        final ReentrantLock baseline = new ReentrantLock();

        @Setup(Level.Trial)
        public void setUp(Shared shared) {
            id = LockId.of("bench-" + shared.threadIds.incrementAndGet(), LockKind.CONFIG);
        }
    }

    @Benchmark
    public long lockManager(Shared shared, PerThread thread) {
        LockScope scope = shared.locks.newScope();
        HeldLock lock = scope.tryAcquire(thread.id).orElseThrow();
        long token = lock.fencingToken();
        lock.release();
        return token;
    }

    @Benchmark
    public boolean reentrantLock(PerThread thread) {
        thread.baseline.lock();
        try {
            return thread.baseline.isHeldByCurrentThread();
        } finally {
            thread.baseline.unlock();
        }
    }

    public static void main(String[] args) throws Exception {
        List<RunResult> results = new ArrayList<>();
        for (int threads : new int[] {1, 8}) {
            results.addAll(Comparisons.run(Comparisons.options(LockManagerBenchmark.class).threads(threads)));
        }
        Comparisons.printRatios(results, "lockManager", "reentrantLock");
        // The ratio is far below 0.01, which the shared two-decimal format rounds to 0.00; state it exactly.
        for (int threads : new int[] {1, 8}) {
            double candidate = score(results, "lockManager", threads);
            double baseline = score(results, "reentrantLock", threads);
            System.out.printf("RATIO-PRECISE [threads=%d]: lockManager/reentrantLock = %.5f (a cycle costs %.0fx a ReentrantLock lock/unlock)%n",
                    threads, candidate / baseline, baseline / candidate);
        }
    }

    private static double score(List<RunResult> results, String method, int threads) {
        return results.stream()
                .filter(r -> r.getParams().getThreads() == threads && r.getParams().getBenchmark().endsWith("." + method))
                .mapToDouble(r -> r.getPrimaryResult().getScore()).findFirst().orElse(Double.NaN);
    }
}
