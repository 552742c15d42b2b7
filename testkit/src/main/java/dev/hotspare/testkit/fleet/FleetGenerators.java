package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.fleet.SchedulerConfig.Resources;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ReadyRoom;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.testkit.property.Gen;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Generators ({@link Gen}) of autoscaling situations for users' own fleet properties: scheduler configs with
 * bounded or unbounded autoscaling and up to three triggers each way (room, legacy and cpu; limits and deltas),
 * fleet snapshots (room counts, ready rooms some outdated, a cpu reading or none), and usage windows. The same
 * shapes drive hotspare's own autoscaler properties (in core's tests, which cannot depend on the testkit).
 */
public final class FleetGenerators {

    private FleetGenerators() {
    }

    /**
     * Scheduler configs named {@code pong}: min 0..40, max unbounded or min..min+80, up to three triggers up and
     * down, cooldowns 0..600 s, a request of one cpu.
     *
     * @return the generator
     */
    public static Gen<SchedulerConfig> configs() {
        Gen<Integer> min = Gen.integers(0, 40);
        Gen<Integer> maxOffset = Gen.integers(-1, 80);
        Gen<List<MetricsTrigger>> up = triggers(true).list(0, 3);
        Gen<List<MetricsTrigger>> down = triggers(false).list(0, 3);
        Gen<Integer> cooldown = Gen.integers(0, 600);
        return Gen.combine(min, maxOffset, up, down, cooldown, cooldown, (mn, off, u, dn, cu, cd) ->
                SchedulerConfig.of("pong", "pong", "img",
                                new Autoscaling(mn, off < 0 ? 0 : mn + off, new ScalingSpec(u, cu, Optional.empty(), Optional.empty()),
                                        new ScalingSpec(dn, cd, Optional.empty(), Optional.empty()), false))
                        .withRequests(new Resources(Optional.of(Quantity.parse("1")), Optional.empty())));
    }

    /**
     * Fleet snapshots: 0..10 ready rooms (some outdated, ready for up to 5000 s before {@code now}), 0..120
     * occupied, 0..120 pending, 0..5 unready, and a cpu reading of 0..200% or none.
     *
     * @param now the decision time the rooms' ready times lie before
     * @return the generator
     */
    public static Gen<FleetSnapshot> snapshots(Instant now) {
        Gen<RoomStatusCounts> counts = Gen.combine(Gen.integers(0, 10), Gen.integers(0, 120), Gen.integers(0, 120),
                Gen.integers(0, 5), RoomStatusCounts::new);
        Gen<UsageReading> cpu = Gen.oneOf(
                Gen.integers(0, 200).map(p -> UsageReading.of(BigDecimal.valueOf(p), BigDecimal.valueOf(100))),
                Gen.just(UsageReading.unavailable("down")));
        return Gen.combine(counts, cpu, Gen.longs(0, 100_000), Gen.integers(0, 1 << 20), (cs, reading, seed, outdatedBits) -> {
            List<ReadyRoom> ready = new ArrayList<>();
            for (int i = 0; i < cs.ready(); i++) {
                ready.add(new ReadyRoom("r" + i, ((outdatedBits >> (i % 20)) & 1) == 1, now.minusSeconds((seed * (i + 7)) % 5000)));
            }
            return new FleetSnapshot(cs, ready, Map.of(ResourceMetric.CPU, reading));
        });
    }

    /**
     * Usage windows of up to 15 points (0.00..1.50) for the {@code room}, {@code legacy} and {@code cpu} triggers.
     *
     * @return the generator
     */
    public static Gen<UsageWindows> windows() {
        Gen<List<BigDecimal>> points = Gen.integers(0, 150).map(p -> BigDecimal.valueOf(p).movePointLeft(2)).list(0, 15);
        return Gen.combine(points, points, points, (room, legacy, cpuPoints) -> {
            Map<String, List<BigDecimal>> m = new HashMap<>();
            m.put("room", room);
            m.put("legacy", legacy);
            m.put("cpu", cpuPoints);
            return new UsageWindows(m);
        });
    }

    /**
     * Triggers of type room, legacy or cpu: usage and threshold 1..100%, 0..120 s; scale-up triggers may carry a
     * limit, legacy triggers a delta of 1..20.
     *
     * @param up whether the triggers scale up
     * @return the generator
     */
    public static Gen<MetricsTrigger> triggers(boolean up) {
        Gen<String> type = Gen.of("room", "legacy", "cpu");
        Gen<Integer> percent = Gen.integers(1, 100);
        Gen<Integer> time = Gen.integers(0, 120);
        Gen<Optional<Integer>> limitOffset = Gen.integers(0, 30).optional(0.5);
        Gen<Integer> delta = Gen.integers(1, 20);
        return Gen.combine(type, percent, percent, time, limitOffset, delta, (t, usage, threshold, seconds, offset, d) ->
                new MetricsTrigger(t, usage, threshold, seconds,
                        up ? offset.map(o -> Math.min(100, usage + o)) : Optional.empty(),
                        t.equals("legacy") ? Optional.of(d) : Optional.empty()));
    }
}
