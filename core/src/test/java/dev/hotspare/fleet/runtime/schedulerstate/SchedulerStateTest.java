package dev.hotspare.fleet.runtime.schedulerstate;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.fleet.runtime.FleetFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler state the watcher records, as in Maestro 9: {@code in-sync} after every tick that scales;
 * {@code subdimensioned} / {@code overdimensioned} only while a wanted scale is held back.
 */
class SchedulerStateTest {

    private static final String CONFIG = """
            name: pong
            game: pong
            image: pong:1
            autoscaling:
              min: 2
              max: MAX
              up:
                metricsTrigger:
                  - type: room
                    usage: 50
                    threshold: 50
                    time: 10
                cooldown: COOLDOWN
            """;

    private final FleetFixture f = new FleetFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private String state() {
        return f.status().state();
    }

    @Test
    void aTickThatScalesLeavesTheSchedulerInSync() {
        f.create(CONFIG.replace("MAX", "0").replace("COOLDOWN", "300"));
        f.fleet().start();
        f.advance(Duration.ofSeconds(10));
        assertThat(f.rooms()).hasSize(2);
        assertThat(state()).isEqualTo("in-sync");
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.OCCUPIED);

        f.advance(Duration.ofSeconds(5));
        assertThat(f.rooms()).as("all occupied: round((200 - 100) / 50) = +2").hasSize(4);
        assertThat(state()).as("Maestro: in sync after the scale").isEqualTo("in-sync");

        // The new rooms start; one more match starts: 3 of 4 occupied is above 50% (below the limit 90%), the
        // trigger fires again, but the up cooldown (300 s) holds it.
        f.advance(Duration.ofSeconds(5));
        f.report(f.rooms().get(2), RoomStatus.OCCUPIED);
        f.advance(Duration.ofSeconds(5));
        assertThat(f.rooms()).hasSize(4);
        assertThat(state()).as("a scale is wanted and held back").isEqualTo("subdimensioned");
    }

    @Test
    void aScaleDownThatCannotTakeDownscaleIsHeldAndSaysSo() {
        f.create(CONFIG.replace("MAX", "4").replace("COOLDOWN", "0"));
        f.addRooms(4);
        f.fleet().start();
        f.advance(Duration.ofSeconds(10));
        f.report(RoomStatus.READY);
        f.fleet().operations().update("pong", CONFIG.replace("MAX", "3").replace("COOLDOWN", "0"));

        try (LockScope other = f.fleet().locks().newScope()) {
            Optional<HeldLock> downscale = other.tryAcquire(LockId.of("pong", LockKind.DOWNSCALE));
            assertThat(downscale).isPresent();
            f.advance(Duration.ofSeconds(10));
            assertThat(f.rooms()).as("4 rooms above max 3, but another worker holds DOWNSCALE").hasSize(4);
            assertThat(state()).isEqualTo("overdimensioned");
        }
        f.advance(Duration.ofSeconds(10));
        assertThat(f.rooms()).hasSize(3);
        assertThat(state()).isEqualTo("in-sync");
    }
}
