package dev.hotspare.fleet.runtime.deadrooms;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.runtime.FleetFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The watcher removes dead rooms; the bounds are inclusive, as in Maestro 9. */
class DeadRoomsTest {

    private final FleetFixture f = new FleetFixture();

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aRoomSilentForExactlyThePingTimeoutIsRemoved() {
        f.create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 1}\n");
        f.fleet().start();
        f.advance(Duration.ofSeconds(20));
        List<String> rooms = f.rooms();
        f.report(RoomStatus.READY);                       // last ping at t = 20 s

        f.advance(Duration.ofSeconds(20));                // t = 40 s: silent 20 s
        assertThat(f.rooms()).isEqualTo(rooms);
        f.advance(Duration.ofSeconds(10));                // t = 50 s: silent exactly 30 s
        assertThat(f.rooms()).as("silent for exactly the ping timeout: dead").doesNotContainAnyElementsOf(rooms);
    }

    @Test
    void aRoomOccupiedForExactlyTheOccupiedTimeoutIsRemoved() {
        f.create("name: pong\ngame: pong\nimage: pong:1\noccupiedTimeout: 20\nautoscaling: {min: 1}\n");
        f.fleet().start();
        f.advance(Duration.ofSeconds(20));
        List<String> rooms = f.rooms();
        f.report(RoomStatus.OCCUPIED);                    // occupied since t = 20 s

        f.advance(Duration.ofSeconds(10));                // t = 30 s: occupied 10 s, still pinging
        f.report(RoomStatus.OCCUPIED);
        assertThat(f.rooms()).isEqualTo(rooms);
        f.advance(Duration.ofSeconds(10));                // t = 40 s: occupied exactly 20 s
        assertThat(f.rooms()).as("occupied for exactly the occupied timeout: dead").doesNotContainAnyElementsOf(rooms);
    }

    @Test
    void aRoomReportingErrorIsCountedNeverAllocatedAndRemovedOnTheNextTickAsADeadRoom() {
        // Item 11 of issue 27: Maestro 10's error status.
        f.create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 2}\n");
        f.fleet().start();
        f.advance(Duration.ofSeconds(20));
        List<String> rooms = f.rooms();
        f.report(RoomStatus.READY);
        String bad = rooms.get(0);
        f.report(bad, RoomStatus.ERROR);
        assertThat(f.status().rooms().error()).isEqualTo(1);
        assertThat(f.status().rooms().active()).as("not capacity").isEqualTo(1);
        assertThat(f.fleet().rooms().allocate("pong")).as("never allocated").contains(rooms.get(1));

        f.advance(Duration.ofSeconds(10));                // the next tick
        assertThat(f.rooms()).as("removed as a dead room, however fresh its report").doesNotContain(bad).contains(rooms.get(1));
        assertThat(f.status().rooms().error()).isZero();
    }
}
