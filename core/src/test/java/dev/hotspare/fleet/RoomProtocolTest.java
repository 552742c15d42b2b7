package dev.hotspare.fleet;

import dev.hotspare.fleet.RoomProtocol.DeadRoomRules;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static dev.hotspare.fleet.RoomProtocol.Outcome.APPLIED;
import static dev.hotspare.fleet.RoomProtocol.Outcome.REJECTED;
import static dev.hotspare.fleet.RoomProtocol.Outcome.STALE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RoomProtocolTest {

    private final Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

    private Optional<RoomState> state(RoomStatus status, int at) {
        return Optional.of(new RoomState("r", status, t0.plusSeconds(at),
                status == RoomStatus.OCCUPIED ? Optional.of(t0.plusSeconds(at)) : Optional.empty()));
    }

    @Test
    void statusesParseFromWireNamesAndUnknownOnesListTheKnown() {
        assertThat(RoomStatus.parse("ready")).isEqualTo(RoomStatus.READY);
        assertThat(RoomStatus.parse(" Occupied ")).isEqualTo(RoomStatus.OCCUPIED);
        assertThatThrownBy(() -> RoomStatus.parse("busy")).isInstanceOf(ValidationException.class)
                .hasMessage("status: bad value 'busy': unknown room status; known statuses: creating, ready, allocated, occupied, terminating, terminated, error");
    }

    @Test
    void outcomes() {
        assertThat(RoomProtocol.outcome(Optional.empty(), RoomStatus.READY, t0)).isEqualTo(APPLIED);
        assertThat(RoomProtocol.outcome(state(RoomStatus.READY, 10), RoomStatus.OCCUPIED, t0.plusSeconds(9))).isEqualTo(STALE);
        assertThat(RoomProtocol.outcome(state(RoomStatus.READY, 10), RoomStatus.OCCUPIED, t0.plusSeconds(10))).isEqualTo(APPLIED);
        assertThat(RoomProtocol.outcome(state(RoomStatus.OCCUPIED, 10), RoomStatus.READY, t0.plusSeconds(11))).isEqualTo(APPLIED);
        assertThat(RoomProtocol.outcome(state(RoomStatus.TERMINATING, 10), RoomStatus.READY, t0.plusSeconds(11))).isEqualTo(REJECTED);
        assertThat(RoomProtocol.outcome(state(RoomStatus.TERMINATING, 10), RoomStatus.TERMINATING, t0.plusSeconds(11))).isEqualTo(APPLIED);
        assertThat(RoomProtocol.outcome(state(RoomStatus.TERMINATING, 10), RoomStatus.TERMINATED, t0.plusSeconds(11))).isEqualTo(APPLIED);
        assertThat(RoomProtocol.outcome(state(RoomStatus.TERMINATING, 10), RoomStatus.READY, t0.plusSeconds(1)))
                .as("staleness is checked first").isEqualTo(STALE);
    }

    @Test
    void occupiedSinceIsKeptWhileOccupied() {
        Optional<RoomState> occupied = RoomProtocol.apply(state(RoomStatus.READY, 0), "r", RoomStatus.OCCUPIED, t0.plusSeconds(5));
        assertThat(occupied.orElseThrow().occupiedSince()).contains(t0.plusSeconds(5));
        Optional<RoomState> stillOccupied = RoomProtocol.apply(occupied, "r", RoomStatus.OCCUPIED, t0.plusSeconds(15));
        assertThat(stillOccupied.orElseThrow().occupiedSince()).contains(t0.plusSeconds(5));
        assertThat(stillOccupied.orElseThrow().lastPing()).isEqualTo(t0.plusSeconds(15));
        assertThat(RoomProtocol.apply(stillOccupied, "r", RoomStatus.READY, t0.plusSeconds(20)).orElseThrow().occupiedSince()).isEmpty();
        assertThat(RoomProtocol.apply(stillOccupied, "r", RoomStatus.TERMINATED, t0.plusSeconds(20))).isEmpty();
    }

    @Test
    void allocatedSlotsBecomeRunningMatchesAndAReadyKeepAliveKeepsARoomAllocated() {
        Optional<RoomState> ready = RoomProtocol.apply(Optional.empty(), "r", RoomStatus.READY, t0, 0);
        RoomState allocated = RoomProtocol.allocate(RoomProtocol.allocate(ready.orElseThrow(), t0.plusSeconds(1)), t0.plusSeconds(2));
        assertThat(allocated).isEqualTo(new RoomState("r", RoomStatus.ALLOCATED, t0, Optional.empty(), 0, 2, Optional.of(t0.plusSeconds(2))));
        assertThat(RoomProtocol.hasFreeSlot(allocated, 3)).isTrue();
        assertThat(RoomProtocol.hasFreeSlot(allocated, 2)).isFalse();

        Optional<RoomState> keepAlive = RoomProtocol.apply(Optional.of(allocated), "r", RoomStatus.READY, t0.plusSeconds(3), 0);
        assertThat(keepAlive.orElseThrow().status()).isEqualTo(RoomStatus.ALLOCATED);
        assertThat(keepAlive.orElseThrow().allocatedAt()).contains(t0.plusSeconds(2));

        Optional<RoomState> oneStarted = RoomProtocol.apply(keepAlive, "r", RoomStatus.OCCUPIED, t0.plusSeconds(4), 1);
        assertThat(oneStarted.orElseThrow()).extracting(RoomState::status, RoomState::runningMatches, RoomState::allocatedSlots)
                .containsExactly(RoomStatus.OCCUPIED, 1, 1);
        Optional<RoomState> both = RoomProtocol.apply(oneStarted, "r", RoomStatus.OCCUPIED, t0.plusSeconds(5), 3);
        assertThat(both.orElseThrow().allocatedSlots()).as("more matches than slots handed out: none left").isZero();
        assertThat(both.orElseThrow().allocatedAt()).isEmpty();

        assertThat(RoomProtocol.allocationExpired(allocated, t0.plusSeconds(1))).isFalse();
        assertThat(RoomProtocol.allocationExpired(allocated, t0.plusSeconds(2))).as("inclusive").isTrue();
        assertThat(RoomProtocol.expireAllocation(allocated)).isEqualTo(new RoomState("r", RoomStatus.READY, t0, Optional.empty(),
                0, 0, Optional.empty()));
        assertThat(RoomProtocol.apply(Optional.of(allocated), "r", RoomStatus.TERMINATING, t0.plusSeconds(3), 0).orElseThrow()
                .allocatedSlots()).as("terminating drops allocations").isZero();
        assertThat(RoomProtocol.apply(ready, "r", RoomStatus.ALLOCATED, t0.plusSeconds(1), 0).orElseThrow())
                .as("a room may report allocated itself").extracting(RoomState::status, RoomState::allocatedSlots, RoomState::allocatedAt)
                .containsExactly(RoomStatus.ALLOCATED, 1, Optional.of(t0.plusSeconds(1)));
        assertThatThrownBy(() -> RoomProtocol.requireRunningMatches(-1)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("runningMatches: bad value '-1'");
    }

    @Test
    void countsExcludeTerminatingFromCapacity() {
        RoomStatusCounts c = new RoomStatusCounts(1, 2, 3, 4);
        assertThat(c.active()).isEqualTo(6);
        assertThat(c.plus(RoomStatus.TERMINATING, 1).active()).isEqualTo(6);
        assertThat(c.plus(RoomStatus.ALLOCATED, 2).active()).as("allocated rooms are capacity").isEqualTo(8);
        assertThat(c.runningMatches()).as("single-match rooms: one per occupied room").isEqualTo(3);
        assertThat(RoomStatus.TERMINATING.isActive()).isFalse();
    }

    @Test
    void deadRoomRules() {
        SchedulerConfig config = SchedulerConfig.of("s", "g", "i", Autoscaling.NONE).withOccupiedTimeout(60);
        DeadRoomRules rules = DeadRoomRules.of(config);
        assertThat(rules.pingTimeout()).isEqualTo(Duration.ofSeconds(30));
        Instant now = t0.plusSeconds(100);
        assertThat(rules.isDead(state(RoomStatus.READY, 69).orElseThrow(), now)).isTrue();
        assertThat(rules.isDead(state(RoomStatus.READY, 70).orElseThrow(), now)).as("exactly 30 s: dead, as in Maestro").isTrue();
        assertThat(rules.isDead(state(RoomStatus.READY, 71).orElseThrow(), now)).isFalse();
        RoomState longMatch = new RoomState("r", RoomStatus.OCCUPIED, t0.plusSeconds(99), Optional.of(t0.plusSeconds(39)));
        assertThat(rules.isDead(longMatch, now)).isTrue();
        RoomState exactMatch = new RoomState("r", RoomStatus.OCCUPIED, t0.plusSeconds(99), Optional.of(t0.plusSeconds(40)));
        assertThat(rules.isDead(exactMatch, now)).as("occupied for exactly the occupied timeout: dead").isTrue();
        RoomState shortMatch = new RoomState("r", RoomStatus.OCCUPIED, t0.plusSeconds(99), Optional.of(t0.plusSeconds(41)));
        assertThat(rules.isDead(shortMatch, now)).isFalse();
        assertThat(rules.isDead(state(RoomStatus.TERMINATING, 0).orElseThrow(), now)).as("terminating counts nowhere").isFalse();
        DeadRoomRules unbounded = DeadRoomRules.of(SchedulerConfig.of("s", "g", "i", Autoscaling.NONE));
        assertThat(unbounded.isDead(longMatch, now)).isFalse();
    }
}
