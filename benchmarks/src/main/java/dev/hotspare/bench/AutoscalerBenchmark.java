package dev.hotspare.bench;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.fleet.SchedulerConfig.Resources;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.runtime.internal.AutoscalerTicks;
import dev.hotspare.memory.InMemoryUsageHistory;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * The autoscaler's cost. Two comparisons, each against a baseline measured in the same run:
 * <ul>
 *   <li>{@code decide} — one decision with a 60-point window and three triggers (room up, cpu up, room
 *       down), exact arithmetic — against {@code decideWithDoubles}, which computes the same steps on doubles the
 *       way Maestro does: min/max checks on the snapshot's counts, the utilisation divisions (occupied / active,
 *       used / requested) from the snapshot at run time, each trigger's window looked up by type, the fires checks,
 *       cooldown, and the clamped delta (what exactness costs). It builds no explanation text and no decision
 *       record, which {@code decide} does; nothing in it is a compile-time constant;</li>
 *   <li>{@code tick10k} — a tick over 10,000 schedulers with the in-memory history: measure, record,
 *       read the windows, decide — against {@code historyOnly10k}, the same history records and reads
 *       without deciding (the storage floor). Target: under 50 ms per tick of 10k schedulers;</li>
 *   <li>{@code decide10k} — the pure decisions alone for 10,000 schedulers whose 60-point windows are
 *       already read (distinct objects per scheduler) — against {@code tick10k}.</li>
 * </ul>
 * Each pair runs interleaved ({@link Comparisons#interleaved}).
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.AutoscalerBenchmark [ROUNDS [decide,tick10k,decide10k]]}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
public class AutoscalerBenchmark {

    static final int SCHEDULERS = 10_000;
    static final int WINDOW = 60;
    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    private final Autoscaler autoscaler = Autoscaler.standard();
    private SchedulerConfig config;
    private FleetSnapshot snapshot;
    private UsageWindows windows;
    private double[] roomPoints;
    private double[] cpuPoints;
    private Map<String, double[]> doubleWindows;

    private InMemoryUsageHistory history;
    private String[] names;
    private FleetSnapshot[] snapshots;
    private UsageWindows[] distinctWindows;
    private long tick;

    @Setup(Level.Trial)
    public void setUp() {
        // 600 s / 10 s period = 60 points per window; nothing fires, so every trigger reads its whole window.
        config = SchedulerConfig.of("bench", "game", "img:1", new Autoscaling(10, 0,
                        ScalingSpec.of(300, MetricsTrigger.of("room", 70, 80, 600), MetricsTrigger.of("cpu", 70, 80, 600)),
                        ScalingSpec.of(300, MetricsTrigger.of("room", 30, 80, 600)), false))
                .withRequests(new Resources(Optional.of(Quantity.parse("1")), Optional.empty()));
        Random random = new Random(42);
        List<BigDecimal> room = new ArrayList<>();
        List<BigDecimal> cpu = new ArrayList<>();
        roomPoints = new double[WINDOW];
        cpuPoints = new double[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            int r = 35 + random.nextInt(30);
            int c = 35 + random.nextInt(30);
            room.add(BigDecimal.valueOf(r, 2));
            cpu.add(BigDecimal.valueOf(c, 2));
            roomPoints[i] = r / 100.0;
            cpuPoints[i] = c / 100.0;
        }
        windows = new UsageWindows(Map.of("room", room, "cpu", cpu));
        doubleWindows = new java.util.HashMap<>(Map.of("room", roomPoints, "cpu", cpuPoints));
        snapshot = FleetSnapshot.of(RoomStatusCounts.of(2, 48, 50))
                .withUsage(ResourceMetric.CPU, UsageReading.of(new BigDecimal("55"), new BigDecimal("100")));

        history = new InMemoryUsageHistory();
        names = new String[SCHEDULERS];
        snapshots = new FleetSnapshot[SCHEDULERS];
        distinctWindows = new UsageWindows[SCHEDULERS];
        for (int s = 0; s < SCHEDULERS; s++) {
            names[s] = "scheduler-" + s;
            int occupied = 30 + random.nextInt(40);
            snapshots[s] = FleetSnapshot.of(RoomStatusCounts.of(0, 100 - occupied, occupied))
                    .withUsage(ResourceMetric.CPU, UsageReading.of(BigDecimal.valueOf(35 + random.nextInt(30)), BigDecimal.valueOf(100)));
            List<BigDecimal> ownRoom = new ArrayList<>();
            List<BigDecimal> ownCpu = new ArrayList<>();
            for (int i = 0; i < WINDOW; i++) {
                // distinct objects per scheduler, as a real fleet has: no cache-friendly sharing
                BigDecimal r = BigDecimal.valueOf(35 + random.nextInt(30), 2);
                BigDecimal c = BigDecimal.valueOf(35 + random.nextInt(30), 2);
                ownRoom.add(r);
                ownCpu.add(c);
                history.record(names[s], "room", r, WINDOW);
                history.record(names[s], "cpu", c, WINDOW);
            }
            distinctWindows[s] = new UsageWindows(Map.of("room", ownRoom, "cpu", ownCpu));
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public ScaleDecision decide() {
        return autoscaler.decide(config, snapshot, windows, SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(1000)), NOW);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public int decideWithDoubles() {
        return decideOnDoubles(config, snapshot, doubleWindows, Optional.of(NOW.minusSeconds(1000)), NOW);
    }

    /** Maestro's shape on doubles: the same steps as {@code decide}, read from the same inputs at run time. */
    private static int decideOnDoubles(SchedulerConfig config, FleetSnapshot snapshot, Map<String, double[]> windows,
                                       Optional<Instant> lastScaleAt, Instant now) {
        Autoscaling a = config.autoscaling();
        RoomStatusCounts counts = snapshot.counts();
        int active = counts.active();
        if (active < a.min()) {
            return a.min() - active;
        }
        if (a.isBounded() && active > a.max()) {
            return -Math.min(active - a.max(), counts.ready());
        }
        double occupancy = active == 0 ? 0 : (double) counts.occupied() / active;
        double cpu = snapshot.resourceUsage().get(ResourceMetric.CPU) instanceof UsageReading.Available r
                ? r.used().doubleValue() / r.requested().doubleValue() : Double.NaN;
        if (Double.isNaN(cpu) || occupancy < 0) {
            return 0;
        }
        if ((!a.isBounded() || active < a.max()) && cooled(a.up(), lastScaleAt, now)) {
            for (MetricsTrigger t : a.up().triggers()) {
                double[] points = windows.get(t.type());
                if (points != null && fires(points, t.usage() / 100.0, t.threshold(), (int) (t.time() / 10), true)) {
                    int delta = a.up().delta().orElse(1);
                    return a.isBounded() ? Math.min(delta, a.max() - active) : delta;
                }
            }
        }
        if (active > a.min() && cooled(a.down(), lastScaleAt, now)) {
            for (MetricsTrigger t : a.down().triggers()) {
                double[] points = windows.get(t.type());
                if (points != null && fires(points, t.usage() / 100.0, t.threshold(), (int) (t.time() / 10), false)) {
                    return -Math.min(a.down().delta().orElse(1), Math.min(active - a.min(), counts.ready()));
                }
            }
        }
        return 0;
    }

    private static boolean cooled(ScalingSpec direction, Optional<Instant> lastScaleAt, Instant now) {
        return lastScaleAt.map(last -> java.time.Duration.between(last, now).compareTo(direction.cooldownDuration()) > 0)
                .orElse(true);
    }

    private static boolean fires(double[] points, double usage, int threshold, int size, boolean up) {
        int from = Math.max(0, points.length - size);
        int beyond = 0;
        for (int i = from; i < points.length; i++) {
            if (up ? points[i] > usage : points[i] < usage) {
                beyond++;
            }
        }
        return (long) beyond * 100 > (long) threshold * size;
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void tick10k(Blackhole bh) {
        Instant now = NOW.plusSeconds(10 * ++tick);
        for (int s = 0; s < SCHEDULERS; s++) {
            bh.consume(AutoscalerTicks.tick(autoscaler, names[s], config, snapshots[s], history, SchedulerState.IN_SYNC,
                    Optional.of(NOW), now));
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void decide10k(Blackhole bh) {
        for (int s = 0; s < SCHEDULERS; s++) {
            bh.consume(autoscaler.decide(config, snapshots[s], distinctWindows[s], SchedulerState.IN_SYNC,
                    Optional.of(NOW), NOW));
        }
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void historyOnly10k(Blackhole bh) {
        for (int s = 0; s < SCHEDULERS; s++) {
            history.record(names[s], "room", BigDecimal.valueOf(50, 2), WINDOW);
            history.record(names[s], "cpu", BigDecimal.valueOf(55, 2), WINDOW);
            bh.consume(history.latest(names[s], "room", WINDOW));
            bh.consume(history.latest(names[s], "cpu", WINDOW));
        }
    }

    public static void main(String[] args) throws Exception {
        // Each pair interleaved (candidate and baseline alternating); args: rounds, then which pairs (default all).
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        List<String> pairs = args.length > 1 ? List.of(args[1].split(",")) : List.of("decide", "tick10k", "decide10k");
        if (pairs.contains("decide")) {
            Comparisons.interleaved(AutoscalerBenchmark.class, "decide", "decideWithDoubles", rounds, Map.of());
        }
        if (pairs.contains("tick10k")) {
            Comparisons.interleaved(AutoscalerBenchmark.class, "tick10k", "historyOnly10k", rounds, Map.of());
        }
        if (pairs.contains("decide10k")) {
            Comparisons.interleaved(AutoscalerBenchmark.class, "decide10k", "tick10k", rounds, Map.of());
        }
    }
}
