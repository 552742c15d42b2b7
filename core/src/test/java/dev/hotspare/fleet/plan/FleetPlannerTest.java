package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.ReadyRoom;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.RoomRemovalRanking;
import dev.hotspare.fleet.plan.FleetPlanner.FleetObservation;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.ScaleDown;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.ScaleReason;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.ScaleUp;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The fleet planner's rules, one tick at a time, with exact rooms. */
class FleetPlannerTest {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final SchedulerVersion V1 = new SchedulerVersion(1, 0);
    final FleetPlanner planner = new FleetPlanner(Autoscaler.standard());

    static SchedulerConfig config(int min, int max, ScalingSpec up, ScalingSpec down) {
        return SchedulerConfig.of("pong", "pong", "pong:1", new Autoscaling(min, max, up, down, false));
    }

    static Member room(String id, int secondsAgo, String version) {
        return new Member(id, NOW.minusSeconds(secondsAgo), version, MemberPhase.READY, DesiredPower.RUNNING,
                ObservedPower.RUNNING, NOW.minusSeconds(secondsAgo), Optional.of(NOW.minusSeconds(secondsAgo)),
                Optional.of(NOW.minusSeconds(secondsAgo)), Optional.empty(), Optional.empty());
    }

    /** An observation with every lock held and nothing running; rooms all READY unless {@code statuses} says otherwise. */
    static Builder observe(SchedulerConfig config, Member... rooms) {
        return new Builder(config, List.of(rooms));
    }

    static final class Builder {
        SchedulerConfig config;
        List<Member> members;
        Map<String, RoomStatus> statuses = new LinkedHashMap<>();
        SchedulerState state = SchedulerState.IN_SYNC;
        List<String> dead = List.of();
        boolean termination = true;
        boolean downscale = true;
        boolean replaceRunning;
        boolean removalRunning;
        UsageWindows usage = UsageWindows.EMPTY;

        Builder(SchedulerConfig config, List<Member> members) {
            this.config = config;
            this.members = members;
            members.forEach(m -> statuses.put(m.id(), RoomStatus.READY));
        }

        FleetObservation build() {
            int[] counts = new int[RoomStatus.values().length];
            statuses.values().forEach(s -> counts[s.ordinal()]++);
            return new FleetObservation("pong", config, V1, state, Optional.empty(), members, statuses,
                    new RoomStatusCounts(counts[RoomStatus.CREATING.ordinal()], counts[RoomStatus.READY.ordinal()],
                            counts[RoomStatus.OCCUPIED.ordinal()], counts[RoomStatus.TERMINATING.ordinal()]),
                    dead, usage, Map.of(), termination, downscale, replaceRunning, removalRunning, NOW);
        }
    }

    @Test
    void roomsWithoutStatusAreRegisteredAndDeadStatusesWithoutRoomAreForgotten() {
        Builder o = observe(config(0, 0, ScalingSpec.NONE, ScalingSpec.NONE), room("a", 30, "v1.0"), room("b", 20, "v1.0"));
        o.statuses.remove("b");
        o.statuses.put("gone", RoomStatus.OCCUPIED);
        o.statuses.put("leaving", RoomStatus.TERMINATING);
        o.statuses.put("just-made-elsewhere", RoomStatus.CREATING);
        o.dead = List.of("gone");

        FleetPlan plan = planner.plan(o.build());

        assertThat(plan.register()).containsExactly(new FleetPlan.Registration("b", NOW.minusSeconds(20)));
        assertThat(plan.forget()).as("a fresh status of a room this view does not list yet stays")
                .containsExactly("gone", "leaving");
        assertThat(plan.removeDead()).as("only listed rooms are removed").isEmpty();
    }

    @Test
    void outdatedRoomsAreReplacedOnlyWithDownscaleHeldAndNoReplaceRunning() {
        Builder o = observe(config(0, 0, ScalingSpec.NONE, ScalingSpec.NONE), room("old", 30, "v0.3"), room("new", 20, "v1.0"));
        assertThat(planner.plan(o.build()).outdated()).containsExactly("old");
        assertThat(planner.plan(o.build()).startReplace()).isTrue();
        o.replaceRunning = true;
        assertThat(planner.plan(o.build()).startReplace()).isFalse();
        o.replaceRunning = false;
        o.downscale = false;
        assertThat(planner.plan(o.build()).startReplace()).isFalse();
    }

    @Test
    void deadRoomsAreRemovedUnderDownscaleAndTheAutoscalerWaitsForTheNextTick() {
        Builder o = observe(config(3, 0, ScalingSpec.NONE, ScalingSpec.NONE), room("a", 30, "v1.0"), room("b", 20, "v1.0"));
        o.dead = List.of("b", "a");

        FleetPlan plan = planner.plan(o.build());

        assertThat(plan.removeDead()).containsExactly("b", "a");
        assertThat(plan.scaling()).as("counts still include the dead rooms").isEmpty();
        assertThat(plan.decision()).isEmpty();

        o.downscale = false;
        FleetPlan busy = planner.plan(o.build());
        assertThat(busy.removeDead()).isEmpty();
        assertThat(busy.scaling()).as("with the dead rooms left for later, below min scales up")
                .contains(new ScaleUp(1, ScaleReason.AUTOSCALE));
    }

    @Test
    void aCreatingSchedulersTickGivesItItsMinRoomsAndMakesItInSync() {
        // Item 8 of issue 27, kept ▲: Maestro's watcher returns at once for a creating scheduler; here create only
        // stores it, so the tick makes its min rooms (the autoscaler itself decides nothing while creating).
        Builder o = observe(config(3, 0, ScalingSpec.NONE, ScalingSpec.NONE), room("a", 30, "v1.0"));
        o.state = SchedulerState.CREATING;

        FleetPlan plan = planner.plan(o.build());

        assertThat(plan.scaling()).contains(new ScaleUp(2, ScaleReason.MIN_ROOMS));
        assertThat(plan.newState()).contains(SchedulerState.IN_SYNC);
        assertThat(plan.usagePoints()).isEmpty();
    }

    @Test
    void withoutTerminationNothingIsAutoscaled() {
        Builder o = observe(config(3, 0, ScalingSpec.NONE, ScalingSpec.NONE), room("a", 30, "v1.0"));
        o.termination = false;
        FleetPlan plan = planner.plan(o.build());
        assertThat(plan.scaling()).isEmpty();
        assertThat(plan.newState()).isEmpty();
        assertThat(plan.usagePoints()).isEmpty();
    }

    @Test
    void aTriggerScaleUpRecordsThisTicksPointAndDecidesOnIt() {
        SchedulerConfig c = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 50, 50, 20)), ScalingSpec.NONE);
        List<Member> rooms = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            rooms.add(room("r" + i, 100 - i, "v1.0"));
        }
        Builder o = observe(c, rooms.toArray(Member[]::new));
        for (int i = 0; i < 8; i++) {
            o.statuses.put("r" + i, RoomStatus.OCCUPIED);
        }
        o.usage = new UsageWindows(Map.of("room", List.of(new BigDecimal("0.8"))));

        FleetPlan plan = planner.plan(o.build());

        assertThat(plan.usagePoints()).containsOnlyKeys("room");
        assertThat(plan.usagePoints().get("room")).isEqualByComparingTo("0.8");
        assertThat(plan.usageKeep()).containsEntry("room", 2);
        assertThat(plan.scaling()).containsInstanceOf(ScaleUp.class);
        assertThat(plan.newState()).as("observed in-sync, in sync after the scale: no change").isEmpty();
        assertThat(plan.heldState()).as("if the scale-up cannot be applied").contains(SchedulerState.SUBDIMENSIONED);
        assertThat(plan.stateAfter(true)).isEmpty();
        assertThat(plan.stateAfter(false)).contains(SchedulerState.SUBDIMENSIONED);
    }

    @Test
    void afterAScaleTheSchedulerIsInSyncAndAScaleThatCannotBeAppliedIsHeld() {
        SchedulerConfig c = config(1, 2, ScalingSpec.NONE, ScalingSpec.NONE);
        Builder o = observe(c, room("c", 30, "v1.0"), room("a", 20, "v1.0"), room("b", 10, "v1.0"));
        o.state = SchedulerState.OVERDIMENSIONED;
        FleetPlan plan = planner.plan(o.build());
        assertThat(plan.scaling()).contains(new ScaleDown(List.of("b"), ScaleReason.AUTOSCALE));
        assertThat(plan.newState()).contains(SchedulerState.IN_SYNC);
        assertThat(plan.heldState()).as("already overdimensioned: no change").isEmpty();
        assertThat(plan.stateAfter(true)).contains(SchedulerState.IN_SYNC);
        assertThat(plan.stateAfter(false)).isEmpty();

        // Above max with no READY room to remove: the scale is held, the scheduler overdimensioned.
        o.state = SchedulerState.IN_SYNC;
        o.statuses.replaceAll((room, status) -> RoomStatus.OCCUPIED);
        FleetPlan held = planner.plan(o.build());
        assertThat(held.scaling()).isEmpty();
        assertThat(held.newState()).contains(SchedulerState.OVERDIMENSIONED);
    }

    @Test
    void manualScalingIsClampedLikeTheAutoscalersScaling() {
        Autoscaling a = new Autoscaling(2, 6, ScalingSpec.NONE, ScalingSpec.NONE, false);
        assertThat(planner.manualScaleUp(a, 4, 4)).as("4 rooms, max 6: scaleup 4 adds 2").isEqualTo(2);
        assertThat(planner.manualScaleUp(a, 6, 1)).as("at max").isZero();
        assertThat(planner.manualScaleUp(a, 8, 1)).as("above max").isZero();
        Autoscaling unbounded = new Autoscaling(0, 0, ScalingSpec.NONE, ScalingSpec.NONE, false);
        assertThat(planner.manualScaleUp(unbounded, 4, 1_000)).as("maxScaleUpAmount").isEqualTo(300);
        assertThat(FleetPlanner.manualScaleDown(a, 4, 5)).as("never below min 2").isEqualTo(2);
        assertThat(FleetPlanner.manualScaleDown(a, 1, 5)).isZero();
        assertThat(FleetPlanner.manualReplicas(a, 9)).isEqualTo(6);
        assertThat(FleetPlanner.manualReplicas(a, 0)).isEqualTo(2);
        assertThat(FleetPlanner.manualReplicas(unbounded, 9)).isEqualTo(9);
    }

    @Test
    void manualScalingRaisesAnAmountThatWouldEndBelowMinOrAboveMaxAsMaestrosSetScalingAmount() {
        // Item 7 of issue 27: a scale-up ending below min becomes min - current; a scale-down ending above max
        // becomes current - max.
        Autoscaling a = new Autoscaling(5, 8, ScalingSpec.NONE, ScalingSpec.NONE, false);
        assertThat(planner.manualScaleUp(a, 1, 1)).as("1 room, min 5: scaleup 1 adds 4").isEqualTo(4);
        assertThat(planner.manualScaleUp(a, 1, 6)).as("ends within [min, max]: as asked").isEqualTo(6);
        assertThat(planner.manualScaleUp(a, 6, 5)).as("still clamped at max").isEqualTo(2);
        assertThat(FleetPlanner.manualScaleDown(a, 12, 1)).as("12 rooms, max 8: scaledown 1 removes 4").isEqualTo(4);
        assertThat(FleetPlanner.manualScaleDown(a, 12, 5)).isEqualTo(5);
        assertThat(FleetPlanner.manualScaleDown(a, 12, 9)).as("still never below min").isEqualTo(7);
        Autoscaler capped = Autoscaler.builder().settings(new dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings(
                Duration.ofSeconds(10), 2)).build();
        assertThat(new FleetPlanner(capped).manualScaleUp(a, 0, 1)).as("raised to min past maxScaleUpAmount, as BELOW_MIN")
                .isEqualTo(5);
        Autoscaling unbounded = new Autoscaling(0, 0, ScalingSpec.NONE, ScalingSpec.NONE, false);
        assertThat(FleetPlanner.manualScaleDown(unbounded, 12, 1)).as("max 0 is no bound").isEqualTo(1);
    }

    @Test
    void roomsHostOneMatchUnlessARoomOccupancyPolicySaysOtherwise() {
        assertThat(FleetPlanner.maxMatchesPerRoom(config(0, 0, ScalingSpec.NONE, ScalingSpec.NONE))).isEqualTo(1);
        SchedulerConfig occupancy = config(0, 0, ScalingSpec.NONE, ScalingSpec.NONE).withAutoscaling(Autoscaling.byPolicy(0, 0,
                dev.hotspare.fleet.SchedulerConfig.PolicySpec.of("roomOccupancy", Map.of("readyTarget", 0.5, "maxMatchesPerRoom", 4))));
        assertThat(FleetPlanner.maxMatchesPerRoom(occupancy)).isEqualTo(4);
        assertThat(FleetPlanner.allocationCutoff(Duration.ofSeconds(60), NOW)).isEqualTo(NOW.minusSeconds(60));
    }

    @Test
    void aScaleDownRemovesReadyRoomsInTheConfiguredRankingsOrder() {
        SchedulerConfig c = config(1, 2, ScalingSpec.NONE, ScalingSpec.NONE);
        Member[] rooms = {room("c", 30, "v1.0"), room("a", 20, "v1.0"), room("b", 10, "v1.0"), room("d", 5, "v1.0")};
        Builder o = observe(c, rooms);
        o.statuses.put("d", RoomStatus.OCCUPIED);

        assertThat(planner.plan(o.build()).scaling()).as("above max 2: the two newest ready rooms")
                .contains(new ScaleDown(List.of("b", "a"), ScaleReason.AUTOSCALE));

        RoomRemovalRanking byName = ready -> ready.stream().sorted(Comparator.comparing(ReadyRoom::name)).toList();
        FleetPlanner custom = new FleetPlanner(Autoscaler.builder().ranking(byName).build());
        assertThat(custom.plan(o.build()).scaling()).contains(new ScaleDown(List.of("a", "b"), ScaleReason.AUTOSCALE));
        assertThat(custom.removalOrder(List.of(rooms), V1, 2)).as("the manual scale-down rule is the same")
                .containsExactly("a", "b");
    }

    @Test
    void thePlanIsAFunctionOfTheObservation() {
        Builder o = observe(config(2, 5, ScalingSpec.NONE, ScalingSpec.NONE), room("a", 30, "v0.1"), room("b", 20, "v1.0"));
        o.dead = List.of("b");
        FleetObservation observation = o.build();
        assertThat(planner.plan(observation)).isEqualTo(planner.plan(observation));
    }

    @Test
    void panicScaleUpIsDecidedOnTheCountsGiven() {
        SchedulerConfig off = config(0, 0, ScalingSpec.of(0, MetricsTrigger.of("room", 70, 80, 60).withLimit(80)), ScalingSpec.NONE);
        SchedulerConfig on = off.withAutoscaling(new Autoscaling(0, 0, off.autoscaling().up(), ScalingSpec.NONE, true));
        assertThat(planner.panic(off, RoomStatusCounts.of(0, 19, 81), NOW)).isEmpty();
        assertThat(planner.panic(on, RoomStatusCounts.of(0, 19, 81), NOW)).hasValueSatisfying(up ->
                assertThat(up.reason()).isEqualTo(ScaleReason.PANIC));
        assertThat(planner.panic(on, RoomStatusCounts.of(0, 20, 80), NOW)).isEmpty();
        assertThat(FleetPlanner.deadRoomRules(on, Duration.ofSeconds(7)).pingTimeout()).isEqualTo(Duration.ofSeconds(7));
    }
}
