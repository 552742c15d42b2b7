package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.PolicySpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ReadyRoom;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision.Reason;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.internal.RoomOccupancyPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Maestro 10's policies, roomOccupancy and fixedBuffer, with exact numbers. */
class TargetPoliciesTest {

    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    final Autoscaler autoscaler = Autoscaler.standard();

    static SchedulerConfig occupancy(int min, int max, String readyTarget, String downThreshold, int maxMatches) {
        return SchedulerConfig.of("pong", "pong", "pong:1", Autoscaling.byPolicy(min, max, PolicySpec.of("roomOccupancy",
                Map.of("readyTarget", new BigDecimal(readyTarget), "downThreshold", new BigDecimal(downThreshold),
                        "maxMatchesPerRoom", maxMatches))));
    }

    static SchedulerConfig buffer(int min, int max, int amount) {
        return SchedulerConfig.of("pong", "pong", "pong:1", Autoscaling.byPolicy(min, max,
                PolicySpec.of("fixedBuffer", Map.of("amount", amount))));
    }

    /** Rooms: creating, ready, allocated, occupied; matches running and slots allocated. */
    static RoomStatusCounts rooms(int creating, int ready, int allocated, int occupied, int matches, int slots) {
        return new RoomStatusCounts(creating, ready, occupied, 0, allocated, matches, slots);
    }

    ScaleDecision decide(SchedulerConfig config, RoomStatusCounts counts) {
        return autoscaler.decide(config, FleetSnapshot.of(counts), UsageWindows.EMPTY, SchedulerState.IN_SYNC,
                Optional.empty(), NOW);
    }

    @ParameterizedTest(name = "{0} matches at readyTarget {1}: {2} slots")
    @CsvSource({
            "1, 0.9, 10",    // ▲ 1 / (1 - 0.9) is exactly 10: Maestro's float64 code computes 10.000000000000002 -> 11
            "9, 0.9, 90",
            "7, 0.5, 14",
            "7, 0.3, 10",    // 7 / 0.7 = 10 exactly
            "8, 0.3, 12",    // 8 / 0.7 = 11.43 -> 12
            "0, 0.5, 0",
            "3, 0.99, 300",
            "1, 0.001, 2",   // 1 / 0.999 = 1.001 -> 2
    })
    void slotsForMatchesAreExact(long matches, String readyTarget, long slots) {
        assertThat(RoomOccupancyPolicy.slotsFor(matches, new BigDecimal(readyTarget))).isEqualTo(slots);
    }

    @Test
    void roomOccupancyWorkedExample() {
        // 10 rooms of 4 slots; 22 matches running and 2 slots allocated: 24 in use.
        // readyTarget 0.5: ceil(24 / 0.5) = 48 slots -> ceil(48 / 4) = 12 rooms: +2.
        SchedulerConfig c = occupancy(2, 50, "0.5", "0.6", 4);
        ScaleDecision up = decide(c, rooms(0, 2, 1, 7, 22, 2));
        assertThat(up.reason()).isEqualTo(Reason.POLICY);
        assertThat(up.delta()).isEqualTo(2);
        assertThat(up.newState()).isEqualTo(SchedulerState.IN_SYNC);
        assertThat(up.explanation()).contains("24 matches need ceil(24 / (1 - 0.5)) = 48 slots = 12 rooms of 4");

        // The rest of the worked example is item 5 of issue 27: roomOccupancyScaleDownGuardIsMaestros.
    }

    @Test
    void roomOccupancyScaleDownGuardIsMaestros() {
        // Item 5 of issue 27: scale down only when ceil(desired x maxMatches x readyTarget) / freeSlots <= downThreshold.
        SchedulerConfig c = occupancy(2, 50, "0.5", "0.6", 4);
        // 8 running on 10 rooms: 16 slots, 4 rooms wanted; ceil(4 x 4 x 0.5) = 8 of 32 free = 0.25 <= 0.6: down to 4.
        ScaleDecision down = decide(c, rooms(0, 7, 0, 3, 8, 0));
        assertThat(down.reason()).isEqualTo(Reason.POLICY);
        assertThat(down.delta()).isEqualTo(-6);
        assertThat(down.explanation()).contains("ceil(4 x 4 x 0.5) = 8 of 32 free slots");

        // 16 running: 32 slots = 8 rooms wanted; ceil(8 x 4 x 0.5) = 16 of 24 free = 0.67 > 0.6: held.
        ScaleDecision held = decide(c, rooms(0, 5, 0, 5, 16, 0));
        assertThat(held.reason()).isEqualTo(Reason.NONE);
        assertThat(held.newState()).isEqualTo(SchedulerState.IN_SYNC);
        assertThat(held.explanation()).contains("16 of 24 free slots, above downThreshold 0.6: no scale-down");

        // 12 running: 24 slots = 6 rooms; ceil(6 x 4 x 0.5) = 12 of 28 free = 0.43: down to 6.
        assertThat(decide(c, rooms(0, 6, 0, 4, 12, 0)).delta()).isEqualTo(-4);
    }

    @Test
    void freeSlotsOfRoomOccupancyTakeOffOnlyRunningMatchesNotAllocatedSlots() {
        // Item 6 of issue 27: 10 rooms of 4, 8 running and 4 allocated: M = 12 wants 24 slots = 6 rooms;
        // free slots are 40 - 8 = 32 (not 28): ceil(6 x 4 x 0.5) = 12 / 32 = 0.375 <= 0.4, so it scales down.
        SchedulerConfig c = occupancy(2, 50, "0.5", "0.4", 4);
        ScaleDecision down = decide(c, rooms(0, 5, 1, 4, 8, 4));
        assertThat(down.explanation()).contains("12 of 32 free slots");
        assertThat(down.reason()).isEqualTo(Reason.POLICY);
        assertThat(down.delta()).isEqualTo(-4);
        // With the allocated slots taken off too, 12 / 28 = 0.43 > 0.4 would have held it.
    }

    @Test
    void oneMatchAtReadyTargetPointNineNeedsTenSlots() {
        // ▲ Maestro's float64 code asks for 11 slots here; its documentation, and hotspare, for 10.
        SchedulerConfig c = occupancy(0, 0, "0.9", "1", 10);
        assertThat(decide(c, rooms(0, 0, 0, 1, 1, 0)).delta()).as("10 slots = 1 room of 10").isZero();
        SchedulerConfig single = occupancy(0, 0, "0.9", "1", 1);
        assertThat(decide(single, rooms(0, 0, 0, 1, 1, 0)).delta()).as("10 slots = 10 rooms of 1").isEqualTo(9);
    }

    @Test
    void theTargetIsClampedToMinAndMaxAndTheScaleUpCap() {
        SchedulerConfig c = occupancy(3, 20, "0.5", "1", 1);
        assertThat(decide(c, rooms(0, 3, 0, 0, 0, 0)).reason()).as("0 matches want 0 rooms; min is 3").isEqualTo(Reason.NONE);
        assertThat(decide(c, rooms(0, 4, 0, 0, 0, 0)).delta()).as("down to min").isEqualTo(-1);
        assertThat(decide(c, rooms(0, 0, 0, 15, 15, 0)).delta()).as("30 wanted, max 20").isEqualTo(5);
        Autoscaler capped = Autoscaler.builder().settings(new AutoscalerSettings(java.time.Duration.ofSeconds(10), 3)).build();
        assertThat(capped.decide(c, FleetSnapshot.of(rooms(0, 0, 0, 15, 15, 0)), UsageWindows.EMPTY, SchedulerState.IN_SYNC,
                Optional.empty(), NOW).delta()).as("maxScaleUpAmount").isEqualTo(3);
    }

    @Test
    void cooldownsHoldThePolicyAndOnlyReadyRoomsAreRemoved() {
        SchedulerConfig c = occupancy(0, 0, "0.5", "1", 1);
        SchedulerConfig cooled = c.withAutoscaling(c.autoscaling().withCooldowns(60, 120));
        ScaleDecision upHeld = autoscaler.decide(cooled, FleetSnapshot.of(rooms(0, 0, 0, 4, 4, 0)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(60)), NOW);
        assertThat(upHeld.heldByCooldown()).isTrue();
        assertThat(upHeld.newState()).isEqualTo(SchedulerState.SUBDIMENSIONED);
        assertThat(autoscaler.decide(cooled, FleetSnapshot.of(rooms(0, 0, 0, 4, 4, 0)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(61)), NOW).delta()).isEqualTo(4);

        ScaleDecision downHeld = autoscaler.decide(cooled, FleetSnapshot.of(rooms(0, 6, 0, 1, 1, 0)), UsageWindows.EMPTY,
                SchedulerState.IN_SYNC, Optional.of(NOW.minusSeconds(100)), NOW);
        assertThat(downHeld.heldByCooldown()).isTrue();
        assertThat(downHeld.newState()).isEqualTo(SchedulerState.OVERDIMENSIONED);

        List<ReadyRoom> ready = List.of(new ReadyRoom("a", false, NOW.minusSeconds(30)), new ReadyRoom("b", false, NOW.minusSeconds(20)));
        // 1 match and 1 allocated slot want 4 rooms; 7 rooms, but only 2 READY (the allocated room stays).
        ScaleDecision down = autoscaler.decide(c, new FleetSnapshot(rooms(0, 2, 1, 4, 1, 1), ready, Map.of()),
                UsageWindows.EMPTY, SchedulerState.IN_SYNC, Optional.empty(), NOW);
        assertThat(down.delta()).isEqualTo(-2);
        assertThat(down.roomsToRemove()).containsExactly("b", "a");
    }

    @Test
    void fixedBufferKeepsAmountRoomsAboveTheTakenOnes() {
        assertThat(decide(buffer(0, 30, 5), rooms(0, 0, 0, 0, 0, 0)).delta()).as("5 free rooms wanted").isEqualTo(5);
        SchedulerConfig c = buffer(2, 30, 5);
        ScaleDecision d = decide(c, rooms(1, 2, 2, 10, 10, 2));
        assertThat(d.reason()).isEqualTo(Reason.POLICY);
        assertThat(d.delta()).as("12 taken + 5 = 17; 15 now (the creating room counts)").isEqualTo(2);
        assertThat(d.explanation()).contains("12 rooms taken + buffer 5 = 17 rooms");
        assertThat(decide(c, rooms(0, 9, 0, 4, 4, 0)).delta()).as("9 free, 5 wanted").isEqualTo(-4);
        assertThat(decide(c, rooms(0, 0, 0, 28, 28, 0)).delta()).as("33 wanted, max 30").isEqualTo(2);
        assertThat(decide(buffer(2, 30, 0), rooms(0, 3, 0, 0, 0, 0)).delta()).as("no buffer: down to min").isEqualTo(-1);
    }

    @Test
    void theBuiltInsDeclareTheirParametersThroughTheSameMechanismAsPlugIns() {
        assertThat(new RoomOccupancyPolicy().parameters()).isEqualTo(PolicyTypes.ROOM_OCCUPANCY_PARAMETERS);
        assertThat(ScalingPolicies.builtIn().types().get("roomOccupancy").orElseThrow().parameters())
                .extracting(p -> p.name()).containsExactly("readyTarget", "downThreshold", "maxMatchesPerRoom");
        PolicyParameters defaults = PolicyParameters.of(PolicyTypes.ROOM_OCCUPANCY_PARAMETERS, Map.of("readyTarget", 0.25));
        assertThat(defaults.values()).containsEntry("readyTarget", new BigDecimal("0.25"))
                .containsEntry("downThreshold", BigDecimal.ONE).containsEntry("maxMatchesPerRoom", BigDecimal.ONE);
    }

    @Test
    void anUnknownPolicyDecidesNothing() {
        SchedulerConfig c = SchedulerConfig.of("pong", "pong", "pong:1", Autoscaling.byPolicy(0, 0, PolicySpec.of("room", Map.of())));
        ScaleDecision d = decide(c, rooms(0, 1, 0, 0, 0, 0));
        assertThat(d.reason()).isEqualTo(Reason.NONE);
        assertThat(d.explanation()).isEqualTo("no target policy of type 'room'");
    }
}
