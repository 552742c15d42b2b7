package dev.hotspare.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.postgres.PostgresClaimStore;
import dev.hotspare.postgres.PostgresSchema;
import dev.hotspare.time.TaskScheduler;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Claim → member latency through the real {@link PoolController} on a hot pool, on real time: a pool of
 * {@code --members} (default 10 000) members, all running, takes claims offered open-loop at {@code --rate} per
 * second (default 1 000) for {@code --seconds} (default 5), with the claims kept in memory and then in an embedded
 * PostgreSQL ({@link PostgresClaimStore}); members are the in-memory driver's (installs and resumes take no time,
 * so only the controller and the claim store are measured). Latency is from just before
 * {@link PoolController#claim(String)} to the completion of the handle's member future; claims are not released
 * during the run, so every claim finds a hot member.
 *
 * <p>Not a JMH benchmark and not part of the test suite (it takes about a minute). Agones' figures, printed
 * beside ours, are quoted, not measured here.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.PoolClaimLatencyBenchmark
 * [--members N] [--rate CLAIMS_PER_S] [--seconds S] [--store memory|postgres|both]}
 */
public final class PoolClaimLatencyBenchmark {

    static final String POOL = "bench";

    private PoolClaimLatencyBenchmark() {
    }

    /** What one run measured. */
    record Result(String store, int offered, double offeredPerSecond, int served, double servedPerSecond,
                  long[] latenciesNanos) {

        double percentileMillis(double p) {
            long[] sorted = latenciesNanos.clone();
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(p / 100 * sorted.length);
            return sorted[Math.max(0, rank - 1)] / 1e6;
        }
    }

    public static void main(String[] args) throws Exception {
        int members = 10_000;
        int rate = 1_000;
        int seconds = 5;
        String store = "both";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--members" -> members = Integer.parseInt(args[i + 1]);
                case "--rate" -> rate = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--store" -> store = args[i + 1];
                default -> throw new IllegalArgumentException(args[i] + ": unknown option");
            }
        }
        List<Result> results = new ArrayList<>();
        if (!store.equals("postgres")) {
            results.add(run("memory", new InMemoryClaimStore(), members, rate, seconds));
        }
        if (!store.equals("memory")) {
            try (EmbeddedPostgres server = EmbeddedPostgres.builder().start()) {
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(server.getJdbcUrl("postgres", "postgres"));
                config.setMaximumPoolSize(8);
                try (HikariDataSource dataSource = new HikariDataSource(config)) {
                    PostgresSchema.migrate(dataSource, "bench");
                    results.add(run("postgres", new PostgresClaimStore(dataSource, "bench"), members, rate, seconds));
                }
            }
        }
        System.out.printf(Locale.ROOT, "%nclaim -> member latency through PoolController: hot pool of %d members, %d claims/s offered for %d s, %d cores%n",
                members, rate, seconds, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-9s %10s %10s %9s %9s %9s %9s %9s%n", "store", "offered/s", "served/s", "p50 ms",
                "p99 ms", "max ms", "mean ms", "unserved");
        for (Result r : results) {
            double mean = Arrays.stream(r.latenciesNanos()).average().orElse(0) / 1e6;
            System.out.printf(Locale.ROOT, "%-9s %10.1f %10.1f %9.1f %9.1f %9.1f %9.1f %9d%n", r.store(), r.offeredPerSecond(),
                    r.servedPerSecond(), r.percentileMillis(50), r.percentileMillis(99), r.percentileMillis(100), mean,
                    r.offered() - r.served());
        }
        System.out.println("Agones (quoted from its published allocation figures, NOT measured here): ~400 allocations/s, "
                + "~500 ms average allocation latency (serialized)");
    }

    static Result run(String name, ClaimStore claims, int members, int rate, int seconds) throws InterruptedException {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        TaskScheduler time = TaskScheduler.system(executor, Clock.systemUTC());
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ZERO)
                .resumeTime(Duration.ZERO).hibernateTime(Duration.ZERO).build();
        PoolSpec spec = PoolSpec.builder(POOL).size(members).runningCount(members).build();
        try (PoolController controller = PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(time)
                .resyncPeriod(Duration.ofSeconds(5)).build().start()) {
            // Warm-up: wait (polling; this is a benchmark, not a test) until every member runs.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (running(driver.list(POOL)) < members && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            int total = rate * seconds;
            long[] latencies = new long[total];
            AtomicInteger served = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(total);
            long[] lastServedAt = new long[1];
            long start = System.nanoTime();
            long intervalNanos = TimeUnit.SECONDS.toNanos(1) / rate;
            for (int i = 0; i < total; i++) {
                long due = start + i * intervalNanos;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                int index = i;
                long submitted = System.nanoTime();
                ClaimHandle handle = controller.claim("c-" + i);
                handle.member().thenAccept(member -> {
                    long now = System.nanoTime();
                    latencies[index] = now - submitted;
                    synchronized (lastServedAt) {
                        lastServedAt[0] = Math.max(lastServedAt[0], now);
                    }
                    served.incrementAndGet();
                    done.countDown();
                });
            }
            long offeredEnd = System.nanoTime();
            done.await(60, TimeUnit.SECONDS);
            int count = served.get();
            long[] measured = new long[count];
            int k = 0;
            for (long l : latencies) {
                if (l > 0 && k < count) {
                    measured[k++] = l;
                }
            }
            double offeredSeconds = (offeredEnd - start) / 1e9;
            double servedSeconds;
            synchronized (lastServedAt) {
                servedSeconds = (lastServedAt[0] - start) / 1e9;
            }
            return new Result(name, total, total / offeredSeconds, count, count / servedSeconds, Arrays.copyOf(measured, k));
        } finally {
            executor.shutdownNow();
        }
    }

    private static long running(List<Member> members) {
        return members.stream().filter(m -> m.claimName().isEmpty() && m.observedPower() == ObservedPower.RUNNING).count();
    }
}
