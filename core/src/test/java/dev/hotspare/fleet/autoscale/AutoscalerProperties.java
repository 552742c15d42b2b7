package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.Autoscaling;
import dev.hotspare.fleet.MetricsTrigger;
import dev.hotspare.fleet.Quantity;
import dev.hotspare.fleet.Resources;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.ScalingSpec;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.ScaleDecision.Reason;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The invariants of issue 3 §3, over generated configs, fleets, windows and times. */
class AutoscalerProperties {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    final Autoscaler autoscaler = Autoscaler.standard();

    /** One generated autoscaling situation. */
    record Case(SchedulerConfig config, FleetSnapshot snapshot, UsageWindows windows, SchedulerState state,
                Optional<Instant> lastScaleAt) {
        ScaleDecision decide(Autoscaler a) {
            return a.decide(config, snapshot, windows, state, lastScaleAt, NOW);
        }

        int active() {
            return snapshot.counts().active();
        }
    }

    @Property
    void roomDeltaSolvesTheTargetWithinOneRoom(@ForAll @IntRange(max = 100_000) int occupied,
                                               @ForAll @IntRange(max = 100_000) int others,
                                               @ForAll @IntRange(min = 1, max = 100) int usage) {
        int active = occupied + others;
        int delta = RoomPolicy.roomDelta(occupied, active, usage);
        // occupied / (A + delta) = usage / 100  <=>  A + delta = occupied·100 / usage; rounding is off by at most half a room
        long twiceError = Math.abs(2L * (active + delta) * usage - 2L * occupied * 100);
        assertThat(twiceError).isLessThanOrEqualTo(usage);
    }

    @Property
    void resourceDeltaIsZeroExactlyOnTarget(@ForAll @IntRange(min = 1, max = 100) int usage,
                                            @ForAll @IntRange(max = 10_000) int active) {
        BigDecimal onTarget = BigDecimal.valueOf(usage).movePointLeft(2);
        assertThat(ResourcePolicy.resourceDelta(onTarget, active, usage)).isZero();
    }

    @Property
    void neverBreaksMinOrMax(@ForAll("cases") Case c) {
        ScaleDecision d = c.decide(autoscaler);
        Autoscaling a = c.config().autoscaling();
        int before = c.active();
        int after = before + d.delta();
        if (before >= a.min()) {
            assertThat(after).isGreaterThanOrEqualTo(a.min());
        }
        if (a.isBounded() && before <= a.max()) {
            assertThat(after).isLessThanOrEqualTo(a.max());
        }
        if (a.isBounded() && before > a.max() && before >= a.min()) {
            assertThat(d.delta()).isLessThanOrEqualTo(0);
            assertThat(after).isGreaterThanOrEqualTo(a.max());
        }
    }

    @Property
    void belowMinAlwaysScalesUpByExactlyTheGap(@ForAll("cases") Case c) {
        ScaleDecision d = c.decide(autoscaler);
        boolean busy = c.state() == SchedulerState.CREATING || c.state() == SchedulerState.TERMINATING;
        if (!busy && c.active() < c.config().autoscaling().min()) {
            assertThat(d.reason()).isEqualTo(Reason.BELOW_MIN);
            assertThat(d.delta()).isEqualTo(c.config().autoscaling().min() - c.active());
        } else {
            assertThat(d.reason()).isNotEqualTo(Reason.BELOW_MIN);
        }
    }

    @Property
    void nothingScalesDuringCooldownExceptThroughLimitOrMinMax(@ForAll("cases") Case c) {
        ScaleDecision d = c.decide(autoscaler);
        if (d.reason() == Reason.TRIGGER) {
            ScalingSpec direction = d.delta() > 0 ? c.config().autoscaling().up() : c.config().autoscaling().down();
            c.lastScaleAt().ifPresent(last ->
                    assertThat(Duration.between(last, NOW)).isGreaterThan(direction.cooldownDuration()));
        }
        if (d.heldByCooldown()) {
            assertThat(d.delta()).isZero();
            assertThat(c.lastScaleAt()).isPresent();
        }
    }

    @Property
    void justAfterAScaleOnlyLimitOrMinMaxCanScale(@ForAll("cases") Case c) {
        Case justScaled = new Case(c.config(), c.snapshot(), c.windows(), c.state(), Optional.of(NOW));
        ScaleDecision d = justScaled.decide(autoscaler);
        assertThat(d.reason()).isIn(Reason.NONE, Reason.LIMIT, Reason.BELOW_MIN, Reason.ABOVE_MAX);
    }

    @Property
    void decisionIsDeterministic(@ForAll("cases") Case c) {
        assertThat(c.decide(autoscaler)).isEqualTo(c.decide(Autoscaler.standard()));
    }

    @Property
    void nothingHappensWhileCreatingOrTerminating(@ForAll("cases") Case c) {
        for (SchedulerState busy : List.of(SchedulerState.CREATING, SchedulerState.TERMINATING)) {
            ScaleDecision d = new Case(c.config(), c.snapshot(), c.windows(), busy, c.lastScaleAt()).decide(autoscaler);
            assertThat(d.delta()).isZero();
            assertThat(d.reason()).isEqualTo(Reason.NONE);
            assertThat(d.newState()).isEqualTo(busy);
        }
    }

    @Property
    void clampsAndRemovalsAreConsistent(@ForAll("cases") Case c) {
        ScaleDecision d = c.decide(autoscaler);
        // The generators must reach every kind of decision, or the other properties would hold vacuously.
        // Thresholds sit several standard deviations below the observed rates (1000 tries), so they do not flake.
        Statistics.label("reason").collect(d.reason());
        Statistics.label("direction").collect(Integer.signum(d.delta()));
        Statistics.label("reason").coverage(checker -> {
            for (Reason r : Reason.values()) {
                if (r != Reason.POLICY) { // trigger configs only here; TargetPoliciesProperties covers the policies
                    checker.check(r).percentage(p -> p > 0.3);
                }
            }
        });
        Statistics.label("direction").coverage(checker -> {
            checker.check(-1).percentage(p -> p > 2.0);
            checker.check(1).percentage(p -> p > 2.0);
        });
        Statistics.label("held").collect(d.heldByCooldown());
        Statistics.label("held").coverage(checker -> checker.check(true).percentage(p -> p > 0.3));
        assertThat(d.delta() == 0).isEqualTo(d.reason() == Reason.NONE);
        if (d.delta() > 0 && d.reason() != Reason.BELOW_MIN) {
            assertThat(d.delta()).isLessThanOrEqualTo(autoscaler.settings().maxScaleUpAmount());
        }
        if (d.delta() < 0) {
            assertThat(-d.delta()).isLessThanOrEqualTo(c.snapshot().counts().ready());
            Set<String> ready = c.snapshot().readyRooms().stream().map(ReadyRoom::name).collect(Collectors.toSet());
            assertThat(d.roomsToRemove()).hasSize(-d.delta()).doesNotHaveDuplicates();
            assertThat(ready).containsAll(d.roomsToRemove());
        } else {
            assertThat(d.roomsToRemove()).isEmpty();
        }
    }

    @Property
    void unavailableMetricsNeverScaleByTriggers(@ForAll("cases") Case c) {
        boolean cpuInUse = c.config().autoscaling().up().triggers().stream().anyMatch(t -> t.type().equals("cpu"))
                || c.config().autoscaling().down().triggers().stream().anyMatch(t -> t.type().equals("cpu"));
        if (cpuInUse && c.snapshot().resourceUsage().get(ResourceMetric.CPU) instanceof UsageReading.Unavailable) {
            assertThat(c.decide(autoscaler).reason()).isIn(Reason.NONE, Reason.BELOW_MIN, Reason.ABOVE_MAX);
        }
    }

    // --- generators ---------------------------------------------------------------------------------

    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Integer> min = Arbitraries.integers().between(0, 40);
        Arbitrary<Integer> maxOffset = Arbitraries.integers().between(-1, 80);
        Arbitrary<List<MetricsTrigger>> up = trigger(true).list().ofMaxSize(3);
        Arbitrary<List<MetricsTrigger>> down = trigger(false).list().ofMaxSize(3);
        Arbitrary<Integer> cooldown = Arbitraries.integers().between(0, 600);
        Arbitrary<SchedulerConfig> config = Combinators.combine(min, maxOffset, up, down, cooldown, cooldown)
                .as((mn, off, u, dn, cu, cd) -> SchedulerConfig.of("pong", "pong", "img",
                                new Autoscaling(mn, off < 0 ? 0 : mn + off, new ScalingSpec(u, cu, Optional.empty(), Optional.empty()),
                                        new ScalingSpec(dn, cd, Optional.empty(), Optional.empty()), false))
                        .withRequests(new Resources(Optional.of(Quantity.parse("1")), Optional.empty())));
        Arbitrary<RoomStatusCounts> counts = Combinators.combine(
                Arbitraries.integers().between(0, 10), Arbitraries.integers().between(0, 120),
                Arbitraries.integers().between(0, 120), Arbitraries.integers().between(0, 5))
                .as(RoomStatusCounts::new);
        Arbitrary<UsageReading> cpu = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 200).map(p -> UsageReading.of(BigDecimal.valueOf(p), BigDecimal.valueOf(100))),
                Arbitraries.just(UsageReading.unavailable("down")));
        Arbitrary<FleetSnapshot> snapshot = Combinators.combine(counts, cpu, Arbitraries.longs().between(0, 100_000),
                        Arbitraries.integers().between(0, 1 << 20))
                .as((cs, reading, seed, outdatedBits) -> {
                    List<ReadyRoom> ready = new ArrayList<>();
                    for (int i = 0; i < cs.ready(); i++) {
                        ready.add(new ReadyRoom("r" + i, ((outdatedBits >> (i % 20)) & 1) == 1,
                                NOW.minusSeconds((seed * (i + 7)) % 5000)));
                    }
                    return new FleetSnapshot(cs, ready, Map.of(ResourceMetric.CPU, reading));
                });
        Arbitrary<UsageWindows> windows = Combinators.combine(points(), points(), points())
                .as((room, legacy, cpuPoints) -> {
                    Map<String, List<BigDecimal>> m = new HashMap<>();
                    m.put("room", room);
                    m.put("legacy", legacy);
                    m.put("cpu", cpuPoints);
                    return new UsageWindows(m);
                });
        Arbitrary<SchedulerState> state = Arbitraries.of(SchedulerState.class);
        Arbitrary<Optional<Instant>> last = Arbitraries.integers().between(0, 1200)
                .map(s -> NOW.minusSeconds(s)).optional(0.8);
        return Combinators.combine(config, snapshot, windows, state, last).as(Case::new);
    }

    private Arbitrary<List<BigDecimal>> points() {
        return Arbitraries.integers().between(0, 150).map(p -> BigDecimal.valueOf(p).movePointLeft(2)).list().ofMaxSize(15);
    }

    private Arbitrary<MetricsTrigger> trigger(boolean up) {
        Arbitrary<String> type = Arbitraries.of("room", "legacy", "cpu");
        Arbitrary<Integer> percent = Arbitraries.integers().between(1, 100);
        Arbitrary<Integer> time = Arbitraries.integers().between(0, 120);
        Arbitrary<Optional<Integer>> limitOffset = Arbitraries.integers().between(0, 30).optional(0.5);
        Arbitrary<Integer> delta = Arbitraries.integers().between(1, 20);
        return Combinators.combine(type, percent, percent, time, limitOffset, delta)
                .as((t, usage, threshold, seconds, offset, d) -> new MetricsTrigger(t, usage, threshold, seconds,
                        up ? offset.map(o -> Math.min(100, usage + o)) : Optional.empty(),
                        t.equals("legacy") ? Optional.of(d) : Optional.empty()));
    }
}
