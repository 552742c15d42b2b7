package dev.hotspare.bench;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.PolicySpec;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.results.RunResult;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The Maestro 10 additions' in-JVM cost, each against a baseline measured in the same run:
 * <ul>
 *   <li>{@code roomOccupancyDecision} — one decision by the roomOccupancy policy (exact slot arithmetic, the
 *       downThreshold check) — against {@code roomTriggerDecision}, the Maestro 9 decision of one room trigger with a
 *       60-point window;</li>
 *   <li>{@code memoryAllocate} — one allocation in the in-memory store over 1,000 rooms of 4 slots (the most used
 *       room with a free slot, packing) — against {@code memoryPing}, one keep-alive report in the same store.</li>
 * </ul>
 * Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.TargetPolicyBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TargetPolicyBenchmark {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final int ROOMS = 1_000;

    private final Autoscaler autoscaler = Autoscaler.standard();
    private SchedulerConfig occupancy;
    private SchedulerConfig roomTrigger;
    private FleetSnapshot snapshot;
    private UsageWindows window;
    private InMemoryRoomStatusStore store;
    private long sequence;

    @Setup(Level.Trial)
    public void setUp() {
        occupancy = SchedulerConfig.of("bench", "game", "img:1", Autoscaling.byPolicy(10, 0, PolicySpec.of("roomOccupancy",
                Map.of("readyTarget", new BigDecimal("0.3"), "downThreshold", new BigDecimal("0.9"), "maxMatchesPerRoom", 4))));
        roomTrigger = SchedulerConfig.of("bench", "game", "img:1", new Autoscaling(10, 0,
                ScalingSpec.of(300, MetricsTrigger.of("room", 70, 80, 600)), ScalingSpec.NONE, false));
        // 100 rooms, 70 matches on 4-slot rooms: roomOccupancy wants ceil(ceil(70 / 0.7) / 4) = 25 rooms.
        snapshot = FleetSnapshot.of(new RoomStatusCounts(0, 60, 40, 0, 0, 70, 0));
        window = new UsageWindows(Map.of("room", new ArrayList<>(Collections.nCopies(60, new BigDecimal("0.4")))));
    }

    @Setup(Level.Iteration)
    public void fillStore() {
        store = new InMemoryRoomStatusStore();
        for (int i = 0; i < ROOMS; i++) {
            store.update("bench", "r" + i, RoomStatus.READY, NOW);
        }
        sequence = 0;
    }

    @Benchmark
    public ScaleDecision roomOccupancyDecision() {
        return autoscaler.decide(occupancy, snapshot, UsageWindows.EMPTY, SchedulerState.IN_SYNC, Optional.empty(), NOW);
    }

    @Benchmark
    public ScaleDecision roomTriggerDecision() {
        return autoscaler.decide(roomTrigger, snapshot, window, SchedulerState.IN_SYNC, Optional.empty(), NOW);
    }

    @Benchmark
    public Optional<String> memoryAllocate() {
        Optional<String> room = store.allocate("bench", 4, NOW);
        if (room.isEmpty()) {
            // Every slot is taken: hand them all back and go on (rare: 4,000 allocations per refill).
            store.expireAllocations("bench", NOW);
            room = store.allocate("bench", 4, NOW);
        }
        return room;
    }

    @Benchmark
    public Object memoryPing() {
        long n = sequence++;
        return store.update("bench", "r" + (n % ROOMS), RoomStatus.READY, NOW.plusMillis(n));
    }

    public static void main(String[] args) throws Exception {
        Collection<RunResult> results = Comparisons.run(Comparisons.options(TargetPolicyBenchmark.class));
        Comparisons.printRatios(results, "roomOccupancyDecision", "roomTriggerDecision");
        Comparisons.printRatios(results, "memoryAllocate", "memoryPing");
    }
}
