package dev.hotspare.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.postgres.PostgresClaimStore;
import dev.hotspare.postgres.PostgresSchema;
import dev.hotspare.time.TaskScheduler;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import javax.sql.DataSource;

/**
 * Claims through one {@link PoolController} on PostgreSQL, open loop: claims are sent at intended times (fixed rate,
 * then a burst, then Poisson arrivals) by a pool of client threads, so a slow answer never delays the next send;
 * each claim's latency runs from its <em>intended</em> send time to the moment its handle holds a member (no
 * coordinated omission). Every served claim is released after a hold, so the pool stays in steady state (members are
 * the in-memory driver's: released members are deleted and replaced at once, installs take no time — only the
 * controller and the claim store are measured). The warm-up is discarded; percentiles are printed per rolling window
 * and per phase.
 *
 * <p>Two variants run in the same JVM against the same server, one after the other: <b>batched</b> (the store's
 * default: the claim records of a whole pass in one statement, ready folded in) and <b>baseline</b> (batch size 1:
 * one transaction per assignment, then its own {@code markReady} — the path before batches, for a pass's assignments
 * and for a claim served at once alike). Both read live claims
 * incrementally (schema version 8), so the ratio is that of the assignment path alone.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.PostgresClaimBenchmark [--rate 3000]
 * [--warmup 10] [--seconds 60] [--burst 5] [--window 10] [--hold-ms 200] [--members 3000] [--batch 500]
 * [--pass-spacing-ms 50] [--pools 1] [--clients 16] [--releasers 2] [--stats] [--batched-only]}: claims come from
 * {@code --clients} threads and are released by {@code --releasers} threads; {@code --batched-only} runs the batched
 * variant alone (no baseline, no ratio: for comparing builds of the store); {@code --stats} prints, after each variant, the server's
 * statements by time and each process's CPU time ({@link Stats}). With {@code --pools 4} four controllers, one pool each and each the owner
 * of its pool (what four instances are once the pools' leases are divided), share one server and the offered rate:
 * issue 22's "10,000 claims/s over 4 pools on 4 owners".
 */
public final class PostgresClaimLoad {

    private PostgresClaimLoad() {
    }

    /** Options, with the defaults: 10 s warm-up, 60 s per measured phase, 10 s windows. */
    record Options(int rate, int warmupSeconds, int seconds, int burstSeconds, int windowSeconds, int holdMillis,
                   int members, int batch, int passSpacingMillis, int pools, int clients, int releasers, boolean stats,
                   boolean batchedOnly) {
        static Options parse(String[] args) {
            int[] v = {3_000, 10, 60, 5, 10, 200, 3_000, PostgresClaimStore.DEFAULT_BATCH_SIZE, 50, 1, 16, 2};
            List<String> names = List.of("--rate", "--warmup", "--seconds", "--burst", "--window", "--hold-ms", "--members", "--batch",
                    "--pass-spacing-ms", "--pools", "--clients", "--releasers");
            for (int i = 0; i < args.length; i++) {
                int at = names.indexOf(args[i]);
                if (at >= 0 && i + 1 < args.length) {
                    v[at] = Integer.parseInt(args[++i]);
                }
            }
            if (v[9] < 1) {
                throw new IllegalArgumentException("--pools " + v[9] + ": at least 1");
            }
            if (v[10] < 1 || v[11] < 1) {
                throw new IllegalArgumentException("--clients " + v[10] + ", --releasers " + v[11] + ": at least 1 each");
            }
            return new Options(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11],
                    List.of(args).contains("--stats"), List.of(args).contains("--batched-only"));
        }
    }

    /**
     * {@code --stats}: where the processor time of a variant went, the server's statements by total execution time
     * ({@code pg_stat_statements}) and each process's CPU time (this JVM and PostgreSQL's processes), from the
     * variant's start to its end.
     */
    record Stats(DataSource dataSource, Map<Long, Duration> cpuAtStart, long startNanos, long commitsAtStart) {

        static Stats start(DataSource dataSource) throws Exception {
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
                s.execute("SELECT pg_stat_statements_reset()");
            }
            return new Stats(dataSource, cpuTimes(), System.nanoTime(), commits(dataSource));
        }

        void print(String variant) throws Exception {
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            Map<Long, Duration> cpu = cpuTimes();
            System.out.printf(Locale.ROOT, "%n%s: statements by server time over %.0f s (calls, total ms, mean ms, rows)%n",
                    variant, seconds);
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT calls, total_exec_time, mean_exec_time, rows, "
                         + "left(regexp_replace(query, '\\s+', ' ', 'g'), 110) FROM pg_stat_statements "
                         + "ORDER BY total_exec_time DESC LIMIT 12")) {
                while (rs.next()) {
                    System.out.printf(Locale.ROOT, "%9d %9.0f %8.3f %9d  %s%n", rs.getLong(1), rs.getDouble(2),
                            rs.getDouble(3), rs.getLong(4), rs.getString(5));
                }
            }
            System.out.printf(Locale.ROOT, "%s: %d transactions committed (read-only ones too: each statement or batch the "
                    + "stores send is one)%n", variant, commits(dataSource) - commitsAtStart);
            Map<Long, String> roles = new HashMap<>();
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT pid, backend_type, left(coalesce(query, ''), 50) FROM pg_stat_activity")) {
                while (rs.next()) {
                    roles.put(rs.getLong(1), rs.getString(2) + ", last: " + rs.getString(3));
                }
            }
            if (cpu.isEmpty()) {
                System.out.println("(no CPU time per process reported here)");
                return;
            }
            long self = ProcessHandle.current().pid();
            double postgres = 0;
            System.out.printf(Locale.ROOT, "%s: CPU time per process, in cores (processes above 0.02 cores)%n", variant);
            for (Map.Entry<Long, Duration> e : cpu.entrySet()) {
                double cores = e.getValue().minus(cpuAtStart.getOrDefault(e.getKey(), Duration.ZERO)).toNanos() / 1e9 / seconds;
                if (e.getKey() != self) {
                    postgres += cores;
                }
                if (cores >= 0.02) {
                    System.out.printf(Locale.ROOT, "%6.2f  %s%n", cores,
                            e.getKey() == self ? "this JVM" : "postgres " + roles.getOrDefault(e.getKey(), "process"));
                }
            }
            System.out.printf(Locale.ROOT, "%6.2f  postgres, all processes%n", postgres);
        }

        /**
         * Transactions committed so far in the benchmark's database, as PostgreSQL counts them (backends report up to a
         * second late).
         */
        private static long commits(DataSource dataSource) throws java.sql.SQLException {
            try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
                s.execute("SELECT pg_stat_clear_snapshot()");
                try (ResultSet rs = s.executeQuery("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        }

        /**
         * CPU time so far of this JVM and of every process whose command is PostgreSQL's, by process id, as the JDK
         * reports it ({@link ProcessHandle.Info#totalCpuDuration}); empty where it reports none.
         */
        static Map<Long, Duration> cpuTimes() {
            long self = ProcessHandle.current().pid();
            Map<Long, Duration> out = new HashMap<>();
            ProcessHandle.allProcesses()
                    .filter(p -> p.pid() == self || p.info().command().filter(c -> c.endsWith("postgres")).isPresent())
                    .forEach(p -> p.info().totalCpuDuration().ifPresent(cpu -> out.put(p.pid(), cpu)));
            return out;
        }
    }

    /** One measured phase of one variant. */
    record Phase(String variant, String name, double offeredPerSecond, double servedPerSecond, int unserved,
                 double p50, double p99, double p999, double max, int gcCount, long gcMillis, CpuPerClaim cpu) {
    }

    /**
     * Processor time per claim offered in a phase, in microseconds, of this JVM (controller, stores, the client threads
     * that call {@code claim} and the releasers; not the generator's own pacing thread, reported apart) and of
     * PostgreSQL's processes, from the phase's first send to its last, and the cores both used meanwhile. It
     * includes what does not grow with the rate (passes on their spacing, the JIT early on), so compare phases of one
     * length at two rates for what one more claim a second costs. Negative where the JDK reports no CPU time per
     * process.
     */
    record CpuPerClaim(double jvmMicros, double postgresMicros, double cores, double generatorMicros) {

        static CpuPerClaim between(Map<Long, Duration> start, Map<Long, Duration> end, int claims, long elapsedNanos,
                                   long generatorNanos) {
            if (end.isEmpty() || claims == 0) {
                return new CpuPerClaim(-1, -1, -1, -1);
            }
            long self = ProcessHandle.current().pid();
            long jvm = 0;
            long postgres = 0;
            for (Map.Entry<Long, Duration> e : end.entrySet()) {
                long used = e.getValue().minus(start.getOrDefault(e.getKey(), Duration.ZERO)).toNanos();
                if (e.getKey() == self) {
                    jvm += used;
                } else {
                    postgres += used;
                }
            }
            // The generator's own thread only paces the sends (its park and wake-up per claim): the harness's, not the
            // pool's. The client threads that call claim() run the controller's claim path, so they stay in.
            long generator = Math.max(0, generatorNanos);
            return new CpuPerClaim((jvm - generator) / 1e3 / claims, postgres / 1e3 / claims,
                    (jvm - generator + postgres) / (double) elapsedNanos, generator / 1e3 / claims);
        }

        double totalMicros() {
            return jvmMicros + postgresMicros;
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args);
        List<Phase> phases = new ArrayList<>();
        double roundTrip;
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder();
        if (o.stats()) {
            builder.setServerConfig("shared_preload_libraries", "pg_stat_statements");
        }
        try (EmbeddedPostgres server = builder.start()) {
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(server.getJdbcUrl("postgres", "postgres"));
            config.setMaximumPoolSize(16);
            try (HikariDataSource dataSource = new HikariDataSource(config)) {
                PostgresSchema.migrate(dataSource, "bench");
                roundTrip = roundTripMicros(dataSource);
                List<Map.Entry<String, Integer>> variants = o.batchedOnly() ? List.of(Map.entry("batched", o.batch()))
                        : List.of(Map.entry("batched", o.batch()), Map.entry("baseline", 1));
                for (Map.Entry<String, Integer> variant : variants) {
                    Stats stats = o.stats() ? Stats.start(dataSource) : null;
                    phases.addAll(run(variant.getKey(), dataSource, variant.getValue(), o));
                    if (stats != null) {
                        stats.print(variant.getKey());
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%nPostgreSQL claims through %d PoolController(s), one pool each and the owner of it, "
                + "open loop, %d claims/s offered in all, hold %d ms, %d members a pool, passes asked for by events spaced %d ms, "
                + "%d cores, %s%n", o.pools(), o.rate(), o.holdMillis(), o.members(), o.passSpacingMillis(),
                Runtime.getRuntime().availableProcessors(), java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()
                        .stream().map(java.lang.management.GarbageCollectorMXBean::getName).toList());
        System.out.printf(Locale.ROOT, "this machine: one SELECT 1 round trip to the embedded server %.0f us (median of %d)%n",
                roundTrip, ROUND_TRIPS);
        System.out.printf(Locale.ROOT, "%-9s %-8s %10s %10s %9s %8s %8s %8s %9s %14s %22s %6s %10s%n", "variant", "phase", "offered/s",
                "served/s", "unserved", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "GC pauses", "CPU us/claim JVM + PG", "cores",
                "generator");
        for (Phase p : phases) {
            System.out.printf(Locale.ROOT, "%-9s %-8s %10.0f %10.0f %9d %8.1f %8.1f %8.1f %9.1f %14s %22s %6s %10s%n", p.variant(), p.name(),
                    p.offeredPerSecond(), p.servedPerSecond(), p.unserved(), p.p50(), p.p99(), p.p999(), p.max(),
                    p.gcCount() + ", " + p.gcMillis() + " ms", p.cpu().jvmMicros() < 0 ? "n/a"
                            : String.format(Locale.ROOT, "%.0f + %.0f = %.0f", p.cpu().jvmMicros(), p.cpu().postgresMicros(),
                            p.cpu().totalMicros()), p.cpu().cores() < 0 ? "n/a"
                            : String.format(Locale.ROOT, "%.2f", p.cpu().cores()), p.cpu().generatorMicros() < 0 ? "n/a"
                            : String.format(Locale.ROOT, "%.0f us", p.cpu().generatorMicros()));
        }
        int half = o.batchedOnly() ? 0 : phases.size() / 2;
        for (int i = 0; i < half; i++) {
            Phase b = phases.get(i);
            Phase base = phases.get(half + i);
            System.out.printf(Locale.ROOT, "ratio batched/baseline, %-8s served/s %s, p99 %.2fx lower%n", b.name(),
                    base.servedPerSecond() < 1 ? "n/a (baseline served none in time)"
                            : String.format(Locale.ROOT, "%.2fx", b.servedPerSecond() / base.servedPerSecond()),
                    base.p99() / Math.max(1e-9, b.p99()));
        }
        Phase steady = phases.get(0);
        if (o.pools() == 1) {
            System.out.printf(Locale.ROOT, "goal >= 3000 claims/s served at p99 <= 20 ms (steady, batched): %s%n",
                    steady.servedPerSecond() >= 3_000 && steady.p99() <= 20 ? "met" : "NOT met");
        } else {
            System.out.printf(Locale.ROOT, "goal >= 10000 claims/s served over %d pools on %d owners (steady, batched): %s%n",
                    o.pools(), o.pools(), steady.servedPerSecond() >= 10_000 ? "met" : "NOT met");
        }
    }

    /** Round trips timed for the machine's figure. */
    static final int ROUND_TRIPS = 2_000;

    /**
     * The median time of one {@code SELECT 1} round trip on one connection, in microseconds: what a round trip costs on
     * this machine, so figures taken on different machines can be set side by side (a claim makes two of them, a release
     * one).
     */
    static double roundTripMicros(DataSource dataSource) throws java.sql.SQLException {
        long[] took = new long[ROUND_TRIPS];
        try (Connection c = dataSource.getConnection(); java.sql.PreparedStatement ps = c.prepareStatement("SELECT 1")) {
            for (int i = 0; i < ROUND_TRIPS; i++) {
                long start = System.nanoTime();
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                }
                took[i] = System.nanoTime() - start;
            }
        }
        Arrays.sort(took);
        return took[ROUND_TRIPS / 2] / 1e3;
    }

    static List<Phase> run(String variant, DataSource dataSource, int batchSize, Options o) throws Exception {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
        ScheduledExecutorService releaser = Executors.newScheduledThreadPool(o.releasers());
        ExecutorService clients = Executors.newFixedThreadPool(o.clients());
        TaskScheduler time = TaskScheduler.system(executor, Clock.systemUTC());
        List<PoolController> controllers = new ArrayList<>();
        List<Phase> out = new ArrayList<>();
        try {
            // One controller per pool, each the owner of its pool (as each of --pools instances would be after the
            // pools' leases are divided), all on one server; the offered rate is shared out among them in turn.
            List<InMemoryMemberDriver> drivers = new ArrayList<>();
            for (int p = 0; p < o.pools(); p++) {
                String pool = o.pools() == 1 ? variant : variant + "-" + p;
                InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ZERO)
                        .resumeTime(Duration.ZERO).hibernateTime(Duration.ZERO).build();
                PoolSpec spec = PoolSpec.builder(pool).size(o.members()).runningCount(o.members()).build();
                PostgresClaimStore store = new PostgresClaimStore(dataSource, "bench", batchSize);
                controllers.add(PoolController.builder(spec).memberDriver(driver).claimStore(store).scheduler(time)
                        .resyncPeriod(Duration.ofSeconds(5)).passSpacing(Duration.ofMillis(o.passSpacingMillis())).build()
                        .start());
                drivers.add(driver);
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            for (int p = 0; p < o.pools(); p++) {
                String pool = controllers.get(p).settings().pool();
                while (running(drivers.get(p).list(pool)) < o.members() && System.nanoTime() < deadline) {
                    Thread.sleep(100); // a benchmark's warm-up poll, not a test
                }
            }
            Load load = new Load(controllers, clients, releaser, o.holdMillis(), variant);
            load.offer("warmup", o.rate(), o.warmupSeconds(), false, new Random(1));
            out.add(load.offer("steady", o.rate(), o.seconds(), false, new Random(2)).summary(o.windowSeconds()));
            out.add(load.offer("burst", o.rate() * 3, o.burstSeconds(), false, new Random(3)).summary(o.windowSeconds()));
            out.add(load.offer("poisson", o.rate(), o.seconds(), true, new Random(4)).summary(o.windowSeconds()));
        } finally {
            controllers.forEach(PoolController::close);
            clients.shutdownNow();
            releaser.shutdownNow();
            executor.shutdownNow();
        }
        return out;
    }

    private static long running(List<Member> members) {
        return members.stream().filter(m -> m.claimName().isEmpty() && m.observedPower() == ObservedPower.RUNNING).count();
    }

    /** The open-loop generator of one variant. */
    static final class Load {
        private final List<PoolController> controllers;
        private final ExecutorService clients;
        private final ScheduledExecutorService releaser;
        private final int holdMillis;
        private final String variant;
        private int next;

        Load(List<PoolController> controllers, ExecutorService clients, ScheduledExecutorService releaser, int holdMillis,
             String variant) {
            this.controllers = controllers;
            this.clients = clients;
            this.releaser = releaser;
            this.holdMillis = holdMillis;
            this.variant = variant;
        }

        /** Offers claims for {@code seconds} at {@code rate} (Poisson gaps if asked), then waits for the stragglers. */
        Recorded offer(String phase, int rate, int seconds, boolean poisson, Random random) throws InterruptedException {
            int expected = (int) ((long) rate * seconds * 2 + 16);
            long[] gcAtStart = PoolClaimLatencyBenchmark.gcTotals();
            Map<Long, Duration> cpuAtStart = Stats.cpuTimes();
            java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long generatorAtStart = threads.getCurrentThreadCpuTime();
            long[] intended = new long[expected];
            AtomicLongArray latency = new AtomicLongArray(expected);
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            double meanGap = 1e9 / rate;
            double at = start;
            int count = 0;
            while (count < expected) {
                at += poisson ? -Math.log(1 - random.nextDouble()) * meanGap : meanGap;
                long due = (long) at;
                if (due >= end) {
                    break;
                }
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(wait);
                }
                int index = count++;
                intended[index] = due;
                PoolController controller = controllers.get(next % controllers.size());
                String name = "c-" + (next++);
                clients.execute(() -> {
                    ClaimHandle handle = controller.claim(name);
                    handle.member().thenAccept(member -> {
                        latency.set(index, Math.max(1, System.nanoTime() - due));
                        releaser.schedule(() -> {
                            try {
                                controller.release(name);
                            } catch (RuntimeException e) {
                                // the next pass settles it; a benchmark keeps going
                            }
                        }, holdMillis, TimeUnit.MILLISECONDS);
                    });
                });
            }
            long offeredEnd = System.nanoTime();
            long[] gcAtEnd = PoolClaimLatencyBenchmark.gcTotals();
            long generatorAtEnd = threads.getCurrentThreadCpuTime();
            CpuPerClaim cpu = CpuPerClaim.between(cpuAtStart, Stats.cpuTimes(), count, offeredEnd - start,
                    generatorAtStart < 0 || generatorAtEnd < 0 ? 0 : generatorAtEnd - generatorAtStart);
            // Stragglers: up to 10 s to be served; whatever is still waiting counts as unserved.
            long patience = offeredEnd + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < patience && served(latency, count) < count) {
                Thread.sleep(20); // a benchmark's drain poll, not a test
            }
            return new Recorded(variant, phase, Arrays.copyOf(intended, count), latency, count, start, offeredEnd,
                    (int) (gcAtEnd[0] - gcAtStart[0]), gcAtEnd[1] - gcAtStart[1], cpu);
        }

        private static int served(AtomicLongArray latency, int count) {
            int n = 0;
            for (int i = 0; i < count; i++) {
                if (latency.get(i) > 0) {
                    n++;
                }
            }
            return n;
        }
    }

    /** What one phase recorded. */
    record Recorded(String variant, String phase, long[] intended, AtomicLongArray latency, int count, long start,
                    long offeredEnd, int gcCount, long gcMillis, CpuPerClaim cpu) {

        Phase summary(int windowSeconds) {
            long windowNanos = TimeUnit.SECONDS.toNanos(windowSeconds);
            long now = System.nanoTime();
            List<Long> all = new ArrayList<>();
            int unserved = 0;
            long servedNanos = 0;
            for (int w = 0; start + w * windowNanos < offeredEnd; w++) {
                List<Long> window = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    if (intended[i] >= start + w * windowNanos && intended[i] < start + (w + 1) * windowNanos) {
                        long l = latency.get(i);
                        window.add(l > 0 ? l : now - intended[i]);
                    }
                }
                if (!window.isEmpty()) {
                    long[] sorted = window.stream().mapToLong(Long::longValue).sorted().toArray();
                    System.out.printf(Locale.ROOT, "%-9s %-8s window %3d-%3d s: %6d claims  p50 %7.1f ms  p99 %7.1f ms  max %8.1f ms%n",
                            variant, phase, w * windowSeconds, (w + 1) * windowSeconds, sorted.length, pct(sorted, 50),
                            pct(sorted, 99), pct(sorted, 100));
                }
            }
            for (int i = 0; i < count; i++) {
                long l = latency.get(i);
                if (l > 0) {
                    all.add(l);
                    servedNanos = Math.max(servedNanos, intended[i] + l);
                } else {
                    unserved++;
                    all.add(now - intended[i]);
                }
            }
            long[] sorted = all.stream().mapToLong(Long::longValue).sorted().toArray();
            double offeredSeconds = (offeredEnd - start) / 1e9;
            double servedSeconds = Math.max(offeredSeconds, (servedNanos - start) / 1e9);
            return new Phase(variant, phase, count / offeredSeconds, (count - unserved) / servedSeconds, unserved,
                    pct(sorted, 50), pct(sorted, 99), pct(sorted, 99.9), pct(sorted, 100), gcCount, gcMillis, cpu);
        }

        private static double pct(long[] sorted, double p) {
            if (sorted.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(p / 100 * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)] / 1e6;
        }
    }
}
