package dev.hotspare.bench;

import dev.hotspare.fleet.Autoscaling;
import dev.hotspare.fleet.MetricsTrigger;
import dev.hotspare.fleet.Quantity;
import dev.hotspare.fleet.Resources;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.ScalingSpec;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.FleetSnapshot;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.ScaleDecision;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.autoscale.UsageWindows;
import dev.hotspare.fleet.runtime.AutoscalerTicks;
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
 *       down), exact arithmetic — against {@code decideWithDoubles}, the same trigger checks done the way
 *       Maestro does them, on doubles (what exactness costs);</li>
 *   <li>{@code tick10k} — a tick over 10,000 schedulers with the in-memory history: measure, record,
 *       read the windows, decide — against {@code historyOnly10k}, the same history records and reads
 *       without deciding (the storage floor). Target: under 50 ms per tick of 10k schedulers;</li>
 *   <li>{@code decide10k} — the pure decisions alone for 10,000 schedulers whose 60-point windows are
 *       already read (distinct objects per scheduler) — against {@code tick10k}.</li>
 * </ul>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.AutoscalerBenchmark}.
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
        // Maestro's shape: utilization as float, points compared as floats, the same three windows.
        double occupancy = 50 / 100.0;
        double cpu = 55 / 100.0;
        int fired = 0;
        fired += fires(roomPoints, 0.70, true) ? 1 : 0;
        fired += fires(cpuPoints, 0.70, true) ? 2 : 0;
        fired += fires(roomPoints, 0.30, false) ? 4 : 0;
        return fired + (occupancy >= 0.9 ? 8 : 0) + (cpu >= 0.9 ? 16 : 0);
    }

    private static boolean fires(double[] points, double usage, boolean up) {
        int beyond = 0;
        for (double p : points) {
            if (up ? p > usage : p < usage) {
                beyond++;
            }
        }
        return beyond * 100 > 80 * points.length;
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
        var results = Comparisons.run(Comparisons.options(AutoscalerBenchmark.class));
        Comparisons.printRatios(results, "decide", "decideWithDoubles");
        Comparisons.printRatios(results, "tick10k", "historyOnly10k");
        Comparisons.printRatios(results, "decide10k", "tick10k");
    }
}
