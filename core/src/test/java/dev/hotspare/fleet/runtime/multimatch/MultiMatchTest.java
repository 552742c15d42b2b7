package dev.hotspare.fleet.runtime.multimatch;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.runtime.FleetFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Maestro 10 rooms host several matches: they report them, the fleet scales on slots and packs allocations. */
class MultiMatchTest {

    private static final String OCCUPANCY = """
            name: pong
            game: pong
            image: pong:1
            autoscaling:
              min: 2
              max: 10
              policy:
                type: roomOccupancy
                parameters:
                  readyTarget: 0.5
                  maxMatchesPerRoom: 4
            """;

    private final FleetFixture f = new FleetFixture(b -> b.allocationTimeout(Duration.ofSeconds(30)));

    @AfterEach
    void close() {
        f.close();
    }

    private void twoReadyRooms() {
        f.create(OCCUPANCY);
        f.fleet().start();
        f.advance(Duration.ofSeconds(20));
        f.report(RoomStatus.READY);
    }

    @Test
    void roomsReportTheirMatchesAndTheFleetScalesOnMatchSlots() {
        twoReadyRooms();
        List<String> rooms = f.rooms();
        f.fleet().rooms().report("pong", rooms.get(0), "occupied", f.now(), 4);
        f.fleet().rooms().report("pong", rooms.get(1), "occupied", f.now(), 2);
        assertThat(f.status().rooms()).isEqualTo(new RoomStatusCounts(0, 0, 2, 0, 0, 6, 0));

        // 6 matches at readyTarget 0.5: 12 slots = 3 rooms of 4.
        f.advance(Duration.ofSeconds(10));
        assertThat(f.rooms()).hasSize(3);
        assertThat(f.status().state()).isEqualTo("in-sync");

        // The matches end: 0 matches want 0 rooms, clamped to min 2; the free-slot ratio 1 is at downThreshold 1.
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);
        f.advance(Duration.ofSeconds(5));
        assertThat(f.rooms()).hasSize(2);
    }

    @Test
    void allocationPacksPartlyUsedRoomsAndAnAllocatedRoomStaysAllocatedUntilItsMatchRuns() {
        twoReadyRooms();
        List<String> rooms = f.rooms();
        f.fleet().rooms().report("pong", rooms.get(1), "occupied", f.now(), 1);

        assertThat(f.fleet().rooms().roomsWithFreeSlots("pong", 5)).containsExactly(rooms.get(1), rooms.get(0));
        assertThat(f.fleet().rooms().allocate("pong")).as("the partly used room first").contains(rooms.get(1));
        assertThat(f.fleet().rooms().allocate("pong")).contains(rooms.get(1));
        assertThat(f.fleet().rooms().allocate("pong")).contains(rooms.get(1));
        assertThat(f.fleet().rooms().allocate("pong")).as("full: then the empty room").contains(rooms.get(0));
        assertThat(f.fleet().roomStatusStore().room("pong", rooms.get(0)).orElseThrow().status()).isEqualTo(RoomStatus.ALLOCATED);

        f.report(rooms.get(0), RoomStatus.READY);
        assertThat(f.status().rooms().allocated()).as("a ready keep-alive keeps it allocated").isEqualTo(1);
        f.fleet().rooms().report("pong", rooms.get(0), "occupied", f.now(), 1);
        assertThat(f.status().rooms()).isEqualTo(new RoomStatusCounts(0, 0, 2, 0, 0, 2, 3));
    }

    @Test
    void anAllocatedRoomThatNeverRunsItsMatchIsReadyAgainAfterTheAllocationTimeout() {
        twoReadyRooms();
        String room = f.fleet().rooms().allocate("pong").orElseThrow();
        f.advance(Duration.ofSeconds(20));
        f.report(RoomStatus.READY);                          // both rooms keep pinging ready
        assertThat(f.fleet().roomStatusStore().room("pong", room).orElseThrow().status()).isEqualTo(RoomStatus.ALLOCATED);

        f.advance(Duration.ofSeconds(10));                 // 30 s after the allocation: the watcher takes it back
        assertThat(f.fleet().roomStatusStore().room("pong", room).orElseThrow().status()).isEqualTo(RoomStatus.READY);
        assertThat(f.status().rooms().allocatedSlots()).isZero();
        for (int slot = 0; slot < 8; slot++) {
            assertThat(f.fleet().rooms().allocate("pong")).as("slot %d of 2 rooms x 4", slot).isPresent();
        }
        assertThat(f.fleet().rooms().allocate("pong")).as("every slot handed out").isEqualTo(Optional.empty());
    }
}
