package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.fleet.SchedulerConfig.Resources;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ReadyRoom;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision.Reason;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Direction;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;
import dev.hotspare.fleet.autoscale.internal.ResourcePolicy;
import dev.hotspare.fleet.autoscale.internal.RoomPolicy;
import dev.hotspare.fleet.runtime.internal.AutoscalerTicks;
import dev.hotspare.memory.InMemoryUsageHistory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AutoscalerTest {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    final Autoscaler autoscaler = Autoscaler.standard();

    static SchedulerConfig config(int min, int max, ScalingSpec up, ScalingSpec down) {
        return SchedulerConfig.of("pong", "pong", "pong:1", new Autoscaling(min, max, up, down, false))
                .withRequests(new Resources(Optional.of(Quantity.parse("1")), Optional.of(Quantity.parse("1Gi"))));
    }

    static UsageWindows points(String type, double... values) {
        List<BigDecimal> list = new ArrayList<>();
        for (double v : values) {
            list.add(BigDecimal.valueOf(v));
        }
        return new UsageWindows(Map.of(type, list));
    }

    static UsageWindows repeated(String type, String value, int n) {
        return new UsageWindows(Map.of(type, Collections.nCopies(n, new BigDecimal(value))));
    }

    ScaleDecision decide(SchedulerConfig c, RoomStatusCounts counts, UsageWindows w) {
        return autoscaler.decide(c, FleetSnapshot.of(counts), w, SchedulerState.IN_SYNC, Optional.empty(), NOW);
    }

    // --- the documentation's formulas -------------------------------------------------------------

    @ParameterizedTest(name = "room: occupied {0}, A {1}, usage {2} -> {3}")
    @CsvSource({
            "80, 100, 70, 14",   // 80 / 114 = 0.7018: the doc's occupied / (total + delta) = usage / 100
            "35, 100, 70, -50",  // 35 / 50 = 0.70 exactly
            "1, 2, 40, 1",       // (100 - 80) / 40 = +0.5 rounds away from zero
            "1, 3, 40, -1",      // (100 - 120) / 40 = -0.5 rounds away from zero
            "0, 10, 50, -10",
            "7, 10, 70, 0",
    })
    void roomDeltaFormula(int occupied, int active, int usage, int expected) {
        assertThat(RoomPolicy.roomDelta(occupied, active, usage)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "cpu: utilization {0}, A {1}, usage {2} -> {3}")
    @CsvSource({
            "0.87, 10, 70, 3",     // ratio 1.242857.. -> 1.24, ceil(12.4) = 13
            "0.7035, 100, 70, 1",  // ratio 1.005 -> 1.01 half away from zero (a double gives 1.00 and 0)
            "0.7, 10, 70, 0",      // ratio exactly 1.00: no float noise
            "0.35, 10, 70, -5",    // ratio 0.50
            "0.2, 3, 50, -1",      // ratio 0.40, ceil(1.2) = 2
    })
    void resourceDeltaFormula(String utilization, int active, int usage, int expected) {
        assertThat(ResourcePolicy.resourceDelta(new BigDecimal(utilization), active, usage)).isEqualTo(expected);
    }

    // --- a worked case per policy -------------------------------------------------------------------

    @Test
    void workedRoomCase() {
        // 60 points (600 s / 10 s), threshold 80: 49 points above 70% fire; the newest 49 are 0.8.
        SchedulerConfig c = config(10, 0, ScalingSpec.of(300, MetricsTrigger.of("room", 70, 80, 600)), ScalingSpec.NONE);
        List<BigDecimal> window = new ArrayList<>(Collections.nCopies(11, new BigDecimal("0.5")));
        window.addAll(Collections.nCopies(49, new BigDecimal("0.8")));
        ScaleDecision d = decide(c, RoomStatusCounts.of(0, 20, 80), new UsageWindows(Map.of("room", window)));
        assertThat(d.reason()).isEqualTo(Reason.TRIGGER);
        assertThat(d.delta()).isEqualTo(14);
        assertThat(d.trigger()).contains(new ScaleDecision.TriggerRef(Direction.UP, 0, "room"));
        assertThat(d.newState()).as("Maestro: in sync after a scale").isEqualTo(SchedulerState.IN_SYNC);

        window.set(window.size() - 49, new BigDecimal("0.7")); // exactly usage is not above it: 48 of 60
        assertThat(decide(c, RoomStatusCounts.of(0, 20, 80), new UsageWindows(Map.of("room", window))).reason())
                .isEqualTo(Reason.NONE);
    }

    @Test
    void workedCpuCase() {
        SchedulerConfig c = config(1, 0, ScalingSpec.NONE, ScalingSpec.of(300, MetricsTrigger.of("cpu", 50, 80, 900)));
        FleetSnapshot snapshot = FleetSnapshot.of(RoomStatusCounts.of(0, 8, 2))
                .withUsage(ResourceMetric.CPU, UsageReading.of(new BigDecimal("3.5"), new BigDecimal("10")));
        ScaleDecision d = autoscaler.decide(c, snapshot, repeated("cpu", "0.35", 90), SchedulerState.IN_SYNC,
                Optional.empty(), NOW);
        // ratio 0.35 / 0.50 = 0.70, ceil(0.7 * 10) = 7, delta -3
        assertThat(d.reason()).isEqualTo(Reason.TRIGGER);
        assertThat(d.delta()).isEqualTo(-3);
        assertThat(d.newState()).isEqualTo(SchedulerState.IN_SYNC);
    }

    @Test
    void workedMemCase() {
        SchedulerConfig c = config(1, 0, ScalingSpec.of(0, MetricsTrigger.of("mem", 70, 50, 20)), ScalingSpec.NONE);
        FleetSnapshot snapshot = FleetSnapshot.of(RoomStatusCounts.of(0, 4, 0))
                .withUsage(ResourceMetric.MEM, UsageReading.of(new BigDecimal("3221225472"), new BigDecimal("4294967296")));
        // utilization 0.75: below the limit 90, two points of two above 70 -> ratio 0.75/0.70 = 1.07, ceil(4.28) = 5
        ScaleDecision d = autoscaler.decide(c, snapshot, repeated("mem", "0.75", 2), SchedulerState.IN_SYNC,
                Optional.empty(), NOW);
        assertThat(d.reason()).isEqualTo(Reason.TRIGGER);
        assertThat(d.delta()).isEqualTo(1);
    }

    @Test
    void workedLegacyCase() {
        // An explicit legacy trigger: room occupancy, the configured fixed delta.
        SchedulerConfig c = config(100, 0, ScalingSpec.of(300, MetricsTrigger.of("legacy", 70, 80, 600).withDelta(10)),
                ScalingSpec.of(300, MetricsTrigger.of("legacy", 50, 80, 900).withDelta(2)));
        assertThat(decide(c, RoomStatusCounts.of(0, 40, 80), repeated("legacy", "0.75", 60)).delta()).isEqualTo(10);
        assertThat(decide(c, RoomStatusCounts.of(0, 120, 30), repeated("legacy", "0.2", 90)).delta()).isEqualTo(-2);
    }

    @Test
    void theOlderDeltaAndTriggerFormIsOneRoomTriggerWithTheRoomFormula() {
        // Maestro 9.6.1 reads {delta, trigger} as a room trigger: the delta is not used, the room formula is.
        ScalingSpec up = new ScalingSpec(List.of(), 300, Optional.of(10),
                Optional.of(new dev.hotspare.fleet.SchedulerConfig.LegacyTrigger(70, 600, 80, Optional.empty())));
        ScalingSpec down = new ScalingSpec(List.of(), 300, Optional.empty(),
                Optional.of(new dev.hotspare.fleet.SchedulerConfig.LegacyTrigger(50, 900, 80, Optional.empty())));
        SchedulerConfig c = config(100, 0, up, down);
        assertThat(c.autoscaling().up().triggers()).containsExactly(MetricsTrigger.of("room", 70, 80, 600));
        assertThat(c.autoscaling().down().triggers()).containsExactly(MetricsTrigger.of("room", 50, 80, 900));

        // 80 of 100 occupied (below the default limit 90), every point at 0.8: round((8000 - 7000) / 70) = +14, not +10.
        ScaleDecision d = decide(c, RoomStatusCounts.of(0, 20, 80), repeated("room", "0.8", 60));
        assertThat(d.reason()).isEqualTo(Reason.TRIGGER);
        assertThat(d.trigger()).contains(new ScaleDecision.TriggerRef(Direction.UP, 0, "room"));
        assertThat(d.delta()).isEqualTo(14);
        // 30 of 150 occupied: round((3000 - 7500) / 50) = -90, clamped to min 100: -50 (the delta 2 plays no part).
        assertThat(decide(c, RoomStatusCounts.of(0, 120, 30), repeated("room", "0.2", 90)).delta()).isEqualTo(-50);
    }

    // --- the rules ------------------------------------------------------------------------------------

    @Test
    void nothingWhileCreatingOrTerminating() {
        SchedulerConfig c = config(10, 0, ScalingSpec.NONE, ScalingSpec.NONE);
        for (SchedulerState s : List.of(SchedulerState.CREATING, SchedulerState.TERMINATING)) {
            ScaleDecision d = autoscaler.decide(c, FleetSnapshot.of(RoomStatusCounts.ZERO), UsageWindows.EMPTY, s,
                    Optional.empty(), NOW);
            assertThat(d.reason()).isEqualTo(Reason.NONE);
            assertThat(d.newState()).isEqualTo(s);
        }
    }

    @Test
    void belowMinAndAboveMaxIgnoreCooldownAndPoints() {
        SchedulerConfig c = config(10, 20, ScalingSpec.of(10_000, MetricsTrigger.of("room", 70, 80, 60)),
                ScalingSpec.of(10_000, MetricsTrigger.of("room", 30, 80, 60)));
        ScaleDecision below = autoscaler.decide(c, FleetSnapshot.of(RoomStatusCounts.of(1, 1, 1)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.of(NOW), NOW);
        assertThat(below.reason()).isEqualTo(Reason.BELOW_MIN);
        assertThat(below.delta()).isEqualTo(7);
        assertThat(below.newState()).as("after a scale the scheduler is in sync").isEqualTo(SchedulerState.IN_SYNC);

        List<ReadyRoom> ready = List.of(
                new ReadyRoom("old-version", true, NOW.minusSeconds(5000)),
                new ReadyRoom("newest", false, NOW.minusSeconds(10)),
                new ReadyRoom("oldest", false, NOW.minusSeconds(9000)),
                new ReadyRoom("middle", false, NOW.minusSeconds(500)));
        FleetSnapshot over = new FleetSnapshot(new RoomStatusCounts(0, 4, 19, 7), ready, Map.of());
        ScaleDecision above = autoscaler.decide(c, over, UsageWindows.EMPTY, SchedulerState.IN_SYNC, Optional.of(NOW), NOW);
        assertThat(above.reason()).isEqualTo(Reason.ABOVE_MAX);
        assertThat(above.delta()).as("23 rooms, max 20; terminating count nowhere").isEqualTo(-3);
        assertThat(above.roomsToRemove()).containsExactly("old-version", "newest", "middle");
        assertThat(above.newState()).isEqualTo(SchedulerState.IN_SYNC);

        ScaleDecision noneReady = autoscaler.decide(c, FleetSnapshot.of(RoomStatusCounts.of(0, 0, 25)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.empty(), NOW);
        assertThat(noneReady.reason()).isEqualTo(Reason.NONE);
        assertThat(noneReady.explanation()).contains("no READY room");
        assertThat(noneReady.newState()).as("a scale is wanted but held back").isEqualTo(SchedulerState.OVERDIMENSIONED);
    }

    @Test
    void noRoomsMeansUndefinedUtilizationAndNoTrigger() {
        SchedulerConfig c = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 10, 10).withLimit(70)), ScalingSpec.NONE);
        ScaleDecision d = decide(c, RoomStatusCounts.ZERO, repeated("room", "1", 10));
        assertThat(d.reason()).isEqualTo(Reason.NONE);
        assertThat(autoscaler.currentUtilizations(c, FleetSnapshot.of(RoomStatusCounts.ZERO), NOW).get("room"))
                .isInstanceOf(Utilization.Undefined.class);
    }

    @Test
    void metricsUnavailableMeansNoneNeverScaleToMin() {
        SchedulerConfig c = config(2, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 60)),
                ScalingSpec.of(0, MetricsTrigger.of("cpu", 50, 80, 60)));
        FleetSnapshot snapshot = FleetSnapshot.of(RoomStatusCounts.of(0, 50, 0))
                .withUsage(ResourceMetric.CPU, UsageReading.unavailable("metrics-server timed out"));
        ScaleDecision d = autoscaler.decide(c, snapshot, repeated("cpu", "0", 6), SchedulerState.IN_SYNC, Optional.empty(), NOW);
        assertThat(d.reason()).isEqualTo(Reason.NONE);
        assertThat(d.delta()).isZero();
        assertThat(d.explanation()).startsWith("metrics unavailable").contains("cpu").contains("metrics-server timed out");
    }

    @Test
    void windowUsesSizeAsDenominatorAndReadsExactlySizePoints() {
        // time 600 / period 10 = 60 points; threshold 80 needs more than 48 points above usage.
        SchedulerConfig c = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 600)), ScalingSpec.NONE);
        RoomStatusCounts counts = RoomStatusCounts.of(0, 20, 80);
        assertThat(decide(c, counts, repeated("room", "0.8", 48)).reason()).as("48 of 60").isEqualTo(Reason.NONE);
        assertThat(decide(c, counts, repeated("room", "0.8", 49)).reason()).as("49 of 60").isEqualTo(Reason.TRIGGER);

        List<BigDecimal> window = new ArrayList<>();
        window.add(new BigDecimal("0.8"));                                  // point 61: Maestro would read it
        window.addAll(Collections.nCopies(12, new BigDecimal("0.5")));
        window.addAll(Collections.nCopies(48, new BigDecimal("0.8")));
        assertThat(decide(c, counts, new UsageWindows(Map.of("room", window))).reason())
                .as("▲ exactly size points are read").isEqualTo(Reason.NONE);
    }

    @Test
    void everyTriggerReadsItsOwnWindowFromTheSharedHistory() {
        // trigger 0: 10 points (100 s); trigger 1: 2 points (20 s); newest two are high, older ones low.
        SchedulerConfig c = config(0, 0, ScalingSpec.of(0,
                MetricsTrigger.of("room", 70, 50, 100).withLimit(100),
                MetricsTrigger.of("room", 60, 50, 20).withLimit(100)), ScalingSpec.NONE);
        UsageWindows w = points("room", 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.8, 0.8);
        ScaleDecision d = decide(c, RoomStatusCounts.of(0, 20, 80), w);
        assertThat(d.trigger().orElseThrow().index()).isEqualTo(1);
        assertThat(d.delta()).isEqualTo(RoomPolicy.roomDelta(80, 100, 60));
    }

    @Test
    void firstFiringTriggerWinsAndAWrongWayDeltaIsIgnored() {
        // up trigger 0 fires on points but its delta is negative now (occupancy 50% < usage 60%): ignored.
        SchedulerConfig c = config(0, 0, ScalingSpec.of(0,
                MetricsTrigger.of("room", 60, 50, 20),
                new MetricsTrigger("legacy", 60, 50, 20, Optional.empty(), Optional.of(3))), ScalingSpec.NONE);
        UsageWindows w = new UsageWindows(Map.of("room", List.of(new BigDecimal("0.9"), new BigDecimal("0.9")),
                "legacy", List.of(new BigDecimal("0.9"), new BigDecimal("0.9"))));
        ScaleDecision d = decide(c, RoomStatusCounts.of(0, 50, 50), w);
        assertThat(d.trigger().orElseThrow().index()).isEqualTo(1);
        assertThat(d.delta()).isEqualTo(3);
    }

    @Test
    void cooldownIsPerDirectionStrictAndHoldsBackDownTriggers() {
        SchedulerConfig c = config(0, 0, ScalingSpec.of(300, MetricsTrigger.of("room", 70, 50, 20)),
                ScalingSpec.of(600, MetricsTrigger.of("legacy", 90, 50, 20).withDelta(1)));
        UsageWindows high = new UsageWindows(Map.of("room", List.of(new BigDecimal("0.8"), new BigDecimal("0.8")),
                "legacy", List.of(new BigDecimal("0.8"), new BigDecimal("0.8"))));
        FleetSnapshot s = FleetSnapshot.of(RoomStatusCounts.of(0, 20, 80));

        ScaleDecision held = autoscaler.decide(c, s, high, SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(300)), NOW);
        assertThat(held.reason()).isEqualTo(Reason.NONE);
        assertThat(held.heldByCooldown()).isTrue();
        assertThat(held.trigger().orElseThrow().direction()).as("down is not evaluated after a held up").isEqualTo(Direction.UP);
        assertThat(held.newState()).isEqualTo(SchedulerState.SUBDIMENSIONED);

        ScaleDecision after = autoscaler.decide(c, s, high, SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(301)), NOW);
        assertThat(after.reason()).isEqualTo(Reason.TRIGGER);
        assertThat(after.newState()).isEqualTo(SchedulerState.IN_SYNC);

        SchedulerConfig downOnly = config(0, 0, ScalingSpec.of(300, MetricsTrigger.of("room", 95, 50, 20)),
                ScalingSpec.of(600, MetricsTrigger.of("legacy", 90, 50, 20).withDelta(1)));
        ScaleDecision downHeld = autoscaler.decide(downOnly, s, high, SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(400)), NOW);
        assertThat(downHeld.heldByCooldown()).isTrue();
        assertThat(downHeld.trigger().orElseThrow().direction()).isEqualTo(Direction.DOWN);
        assertThat(downHeld.newState()).isEqualTo(SchedulerState.OVERDIMENSIONED);
        assertThat(autoscaler.decide(downOnly, s, high, SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(601)), NOW).delta())
                .isEqualTo(-1);
    }

    @Test
    void aTriggerHeldByTheCooldownDoesNotHideALaterTriggersLimit() {
        // up[0] fires on its points but is held by the cooldown; up[1]'s limit (75%) is reached and ignores cooldown.
        SchedulerConfig c = config(0, 0, ScalingSpec.of(300,
                        MetricsTrigger.of("room", 50, 50, 20).withLimit(95),
                        MetricsTrigger.of("legacy", 60, 50, 20).withLimit(75).withDelta(4)),
                ScalingSpec.of(0, MetricsTrigger.of("room", 90, 50, 20)));
        UsageWindows high = new UsageWindows(Map.of("room", List.of(new BigDecimal("0.8"), new BigDecimal("0.8")),
                "legacy", List.of(new BigDecimal("0.8"), new BigDecimal("0.8"))));
        FleetSnapshot s = FleetSnapshot.of(RoomStatusCounts.of(0, 20, 80));
        ScaleDecision d = autoscaler.decide(c, s, high, SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(10)), NOW);
        assertThat(d.reason()).isEqualTo(Reason.LIMIT);
        assertThat(d.trigger()).contains(new ScaleDecision.TriggerRef(Direction.UP, 1, "legacy"));
        assertThat(d.delta()).isEqualTo(4);
        assertThat(d.newState()).isEqualTo(SchedulerState.IN_SYNC);

        // Without a later limit reached, the held trigger is the decision, and down triggers are skipped that tick.
        FleetSnapshot calmer = FleetSnapshot.of(RoomStatusCounts.of(0, 30, 70));
        ScaleDecision held = autoscaler.decide(c, calmer, high, SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(10)), NOW);
        assertThat(held.reason()).isEqualTo(Reason.NONE);
        assertThat(held.heldByCooldown()).isTrue();
        assertThat(held.trigger()).contains(new ScaleDecision.TriggerRef(Direction.UP, 0, "room"));
        assertThat(held.newState()).isEqualTo(SchedulerState.SUBDIMENSIONED);
    }

    @Test
    void limitScalesAtOnceIgnoringCooldownAndPoints() {
        SchedulerConfig c = config(0, 0, ScalingSpec.of(10_000, MetricsTrigger.of("room", 70, 80, 600)), ScalingSpec.NONE);
        ScaleDecision d = autoscaler.decide(c, FleetSnapshot.of(RoomStatusCounts.of(0, 10, 90)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.of(NOW), NOW);
        assertThat(d.reason()).as("default limit 90, occupancy 90%").isEqualTo(Reason.LIMIT);
        assertThat(d.delta()).isEqualTo(RoomPolicy.roomDelta(90, 100, 70));

        assertThat(autoscaler.decide(c, FleetSnapshot.of(RoomStatusCounts.of(0, 11, 89)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.of(NOW), NOW).reason()).isEqualTo(Reason.NONE);

        SchedulerConfig highUsage = config(0, 0, ScalingSpec.of(10_000, MetricsTrigger.of("room", 90, 80, 600)), ScalingSpec.NONE);
        assertThat(autoscaler.decide(highUsage, FleetSnapshot.of(RoomStatusCounts.of(0, 1, 99)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.of(NOW), NOW).reason()).as("no default limit when usage >= 90").isEqualTo(Reason.NONE);
    }

    @Test
    void upIsClampedToMaxAndMaxScaleUpAmount() {
        SchedulerConfig bounded = config(0, 105, ScalingSpec.of(0, MetricsTrigger.of("room", 50, 50, 10)), ScalingSpec.NONE);
        assertThat(decide(bounded, RoomStatusCounts.of(0, 20, 80), repeated("room", "0.8", 1)).delta()).isEqualTo(5);

        SchedulerConfig unbounded = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 10, 50, 10)), ScalingSpec.NONE);
        assertThat(decide(unbounded, RoomStatusCounts.of(0, 20, 80), repeated("room", "0.8", 1)).delta()).isEqualTo(300);
        Autoscaler small = Autoscaler.builder().settings(new AutoscalerSettings(java.time.Duration.ofSeconds(10), 7)).build();
        assertThat(small.decide(unbounded, FleetSnapshot.of(RoomStatusCounts.of(0, 20, 80)), repeated("room", "0.8", 1),
                SchedulerState.IN_SYNC, Optional.empty(), NOW).delta()).isEqualTo(7);
        assertThat(decide(bounded, RoomStatusCounts.of(0, 25, 80), repeated("room", "0.8", 1)).reason())
                .as("at max, up triggers are not evaluated").isEqualTo(Reason.NONE);
    }

    @Test
    void downNeverBelowMinAndOnlyReadyRoomsGo() {
        SchedulerConfig c = config(95, 0, ScalingSpec.NONE, ScalingSpec.of(0, MetricsTrigger.of("legacy", 50, 50, 10).withDelta(10)));
        List<ReadyRoom> ready = List.of(new ReadyRoom("a", false, NOW.minusSeconds(30)),
                new ReadyRoom("b", false, NOW.minusSeconds(20)), new ReadyRoom("c", false, NOW.minusSeconds(10)));
        FleetSnapshot s = new FleetSnapshot(RoomStatusCounts.of(0, 3, 97), ready, Map.of());
        ScaleDecision d = autoscaler.decide(c, s, repeated("legacy", "0.1", 1), SchedulerState.IN_SYNC, Optional.empty(), NOW);
        assertThat(d.delta()).as("min 95 allows 5, only 3 are ready").isEqualTo(-3);
        assertThat(d.roomsToRemove()).containsExactly("c", "b", "a");

        SchedulerConfig min99 = config(99, 0, ScalingSpec.NONE, ScalingSpec.of(0, MetricsTrigger.of("legacy", 50, 50, 10).withDelta(10)));
        ScaleDecision d2 = autoscaler.decide(min99, s, repeated("legacy", "0.1", 1), SchedulerState.IN_SYNC, Optional.empty(), NOW);
        assertThat(d2.delta()).isEqualTo(-1);
        assertThat(d2.roomsToRemove()).containsExactly("c");

        RoomRemovalRanking byName = rooms -> rooms.stream().sorted(java.util.Comparator.comparing(ReadyRoom::name)).toList();
        Autoscaler custom = Autoscaler.builder().ranking(byName).build();
        assertThat(custom.decide(min99, s, repeated("legacy", "0.1", 1), SchedulerState.IN_SYNC, Optional.empty(), NOW)
                .roomsToRemove()).containsExactly("a");
    }

    @Test
    void inSyncWhenNothingFires() {
        SchedulerConfig c = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 60)),
                ScalingSpec.of(0, MetricsTrigger.of("room", 30, 80, 60)));
        ScaleDecision d = decide(c, RoomStatusCounts.of(0, 50, 50), repeated("room", "0.5", 6));
        assertThat(d).isEqualTo(ScaleDecision.none(SchedulerState.IN_SYNC, "no trigger fired"));
    }

    @Test
    void panicDecision() {
        SchedulerConfig off = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 60).withLimit(80)), ScalingSpec.NONE);
        SchedulerConfig on = off.withAutoscaling(new Autoscaling(0, 0, off.autoscaling().up(), ScalingSpec.NONE, true));
        RoomStatusCounts busy = RoomStatusCounts.of(0, 19, 81);
        assertThat(autoscaler.panicDecision(off, busy, RoomStatus.OCCUPIED, NOW).reason()).isEqualTo(Reason.NONE);
        assertThat(autoscaler.panicDecision(on, busy, RoomStatus.READY, NOW).reason()).isEqualTo(Reason.NONE);
        ScaleDecision panic = autoscaler.panicDecision(on, busy, RoomStatus.OCCUPIED, NOW);
        assertThat(panic.reason()).isEqualTo(Reason.LIMIT);
        assertThat(panic.newState()).isEqualTo(SchedulerState.IN_SYNC);
        assertThat(panic.delta()).isEqualTo(RoomPolicy.roomDelta(81, 100, 70));
        assertThat(autoscaler.panicDecision(on, RoomStatusCounts.of(0, 20, 80), RoomStatus.OCCUPIED, NOW).reason())
                .as("100*80 > 100*80 is false").isEqualTo(Reason.NONE);
    }

    @Test
    void panicScaleWithTheOlderDeltaAndTriggerFormAddsTheBlocksDelta() {
        // Item 9 of issue 27, as Maestro: the panic scale-up is the up block's delta (10), not the room formula's.
        ScalingSpec up = new ScalingSpec(List.of(), 300, Optional.of(10),
                Optional.of(new dev.hotspare.fleet.SchedulerConfig.LegacyTrigger(70, 600, 80, Optional.of(80))));
        SchedulerConfig on = config(0, 0, up, ScalingSpec.NONE)
                .withAutoscaling(new Autoscaling(0, 0, up, ScalingSpec.NONE, true));
        RoomStatusCounts busy = RoomStatusCounts.of(0, 19, 81);
        ScaleDecision panic = autoscaler.panicDecision(on, busy, RoomStatus.OCCUPIED, NOW);
        assertThat(panic.reason()).isEqualTo(Reason.LIMIT);
        assertThat(panic.delta()).isEqualTo(10).isNotEqualTo(RoomPolicy.roomDelta(81, 100, 70));
        // Without a delta in the block, the room formula sizes it.
        ScalingSpec noDelta = new ScalingSpec(List.of(), 300, Optional.empty(), up.trigger());
        SchedulerConfig formula = config(0, 0, noDelta, ScalingSpec.NONE)
                .withAutoscaling(new Autoscaling(0, 0, noDelta, ScalingSpec.NONE, true));
        assertThat(autoscaler.panicDecision(formula, busy, RoomStatus.OCCUPIED, NOW).delta()).isEqualTo(RoomPolicy.roomDelta(81, 100, 70));
        // Still clamped at max.
        SchedulerConfig bounded = config(0, 0, up, ScalingSpec.NONE)
                .withAutoscaling(new Autoscaling(0, 104, up, ScalingSpec.NONE, true));
        assertThat(autoscaler.panicDecision(bounded, busy, RoomStatus.OCCUPIED, NOW).delta()).isEqualTo(4);
    }

    @Test
    void tickRecordsPointsThenDecides() {
        SchedulerConfig c = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 50, 20)), ScalingSpec.NONE);
        InMemoryUsageHistory history = new InMemoryUsageHistory();
        FleetSnapshot s = FleetSnapshot.of(RoomStatusCounts.of(0, 20, 80));
        ScaleDecision first = AutoscalerTicks.tick(autoscaler, "pong", c, s, history, SchedulerState.IN_SYNC, Optional.empty(), NOW);
        assertThat(first.reason()).as("1 of 2 points above: 100 > 100 is false").isEqualTo(Reason.NONE);
        ScaleDecision second = AutoscalerTicks.tick(autoscaler, "pong", c, s, history, SchedulerState.IN_SYNC, Optional.empty(), NOW.plusSeconds(10));
        assertThat(second.reason()).isEqualTo(Reason.TRIGGER);
        AutoscalerTicks.tick(autoscaler, "pong", c, s, history, SchedulerState.IN_SYNC, Optional.empty(), NOW.plusSeconds(20));
        assertThat(history.latest("pong", "room", 10)).as("trimmed to the window").hasSize(2)
                .allSatisfy(p -> assertThat(p).isEqualByComparingTo("0.8"));
    }

    @Test
    void policiesRegisterProgrammaticallyAndThroughServiceLoader() {
        assertThat(ScalingPolicies.builtIn().typeNames())
                .containsExactly("room", "cpu", "mem", "legacy", "roomOccupancy", "fixedBuffer");
        assertThat(ScalingPolicies.loaded().typeNames()).contains("room", "cpu", "mem", "legacy", "roomOccupancy", "fixedBuffer");
        ScalingPolicy custom = new ScalingPolicy() {
            public String type() {
                return "queue";
            }

            public Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
                return Utilization.of(BigDecimal.ONE);
            }

            public int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
                return 1;
            }
        };
        assertThat(ScalingPolicies.builtIn().with(custom).get("queue")).containsSame(custom);
        assertThatThrownBy(() -> ScalingPolicies.builtIn().with(new RoomPolicy()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already registered");
    }
}
