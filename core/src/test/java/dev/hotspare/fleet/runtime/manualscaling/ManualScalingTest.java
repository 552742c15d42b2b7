package dev.hotspare.fleet.runtime.manualscaling;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.runtime.FleetFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Manual scale-up, scale-down and replicas respect min, max and the scale-up cap exactly as the watcher does: each
 * request is recorded with the scheduler, and the watcher (woken at once in this process) decides and applies it.
 */
class ManualScalingTest {

    private static final String MIN_2_MAX_6 = "name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 2, max: 6}\n";

    /** Rooms here report once: a long ping timeout keeps the watcher from removing them as dead meanwhile. */
    private FleetFixture f = new FleetFixture(b -> b.pingTimeout(Duration.ofHours(1)));

    @BeforeEach
    void start() {
        f.fleet().start();
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void scaleUpNeverGoesAboveMax() {
        f.create(MIN_2_MAX_6);
        assertThat(f.applied(f.fleet().operations().scaleUp("pong", 4))).isEqualTo(4);
        // Maestro 9: at 4 rooms with max 6, scaleup 4 adds 2 (hotspare added 4 before).
        assertThat(f.applied(f.fleet().operations().scaleUp("pong", 4))).isEqualTo(2);
        assertThat(f.rooms()).hasSize(6);
        assertThat(f.applied(f.fleet().operations().scaleUp("pong", 1))).as("at max").isZero();
        assertThat(f.rooms()).hasSize(6);
    }

    @Test
    void scaleDownNeverGoesBelowMinAndTakesOnlyReadyRooms() {
        f.create(MIN_2_MAX_6);
        f.fleet().operations().scaleUp("pong", 6);
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);
        String busy = f.rooms().get(0);
        f.report(busy, RoomStatus.OCCUPIED);

        CompletableFuture<Integer> removed = f.fleet().operations().scaleDown("pong", 10);
        f.advance(Duration.ofSeconds(10));

        assertThat(removed).isCompletedWithValue(4);
        assertThat(f.rooms()).hasSize(2).contains(busy);
        CompletableFuture<Integer> none = f.fleet().operations().scaleDown("pong", 1);
        f.advance(Duration.ofSeconds(1));
        assertThat(none).as("at min").isCompletedWithValue(0);
    }

    @Test
    void aScaleDownWithMinZeroReportsTheClampedAmountOfRoomsRemovedNotTheRequestedOne() {
        // Item 10 of issue 27, kept ▲: Maestro answers with the amount asked (5); the same 3 rooms go either way,
        // and hotspare says how many did.
        f.create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 0, max: 6}\n");
        f.fleet().operations().scaleUp("pong", 3);
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);
        CompletableFuture<Integer> removed = f.fleet().operations().scaleDown("pong", 5);
        f.advance(Duration.ofSeconds(10));
        assertThat(removed).isCompletedWithValue(3);
        assertThat(f.rooms()).isEmpty();
    }

    @Test
    void aManualScaleUpThatWouldEndBelowMinIsRaisedToMin() {
        // Item 7 of issue 27 on the runtime: 0 rooms, min 2, scaleup 1 creates 2 (Maestro's SetScalingAmount).
        f.create(MIN_2_MAX_6);
        assertThat(f.applied(f.fleet().operations().scaleUp("pong", 1))).isEqualTo(2);
        assertThat(f.rooms()).hasSize(2);
    }

    @Test
    void replicasAreClampedToMinAndMax() {
        f.create(MIN_2_MAX_6);
        CompletableFuture<Integer> up = f.fleet().operations().scaleTo("pong", 9);
        assertThat(f.applied(up)).as("9 asked, max 6").isEqualTo(6);
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);

        CompletableFuture<Integer> down = f.fleet().operations().scaleTo("pong", 0);
        f.advance(Duration.ofSeconds(10));
        assertThat(down).as("0 asked, min 2").isCompletedWithValue(-4);
        assertThat(f.rooms()).hasSize(2);
        assertThat(f.applied(f.fleet().operations().scaleTo("pong", 1))).isZero();
    }

    @Test
    void oneScaleUpAddsAtMostTheAutoscalersScaleUpCap() {
        f.close();
        f = new FleetFixture(b -> b.pingTimeout(Duration.ofHours(1)).autoscaler(Autoscaler.builder()
                .settings(new AutoscalerSettings(Duration.ofSeconds(10), 3)).build()));
        f.fleet().start();
        f.create("name: pong\ngame: pong\nimage: pong:1\n");
        assertThat(f.applied(f.fleet().operations().scaleUp("pong", 10))).isEqualTo(3);
        assertThat(f.applied(f.fleet().operations().scaleTo("pong", 10))).isEqualTo(3);
        assertThat(f.rooms()).hasSize(6);
    }

    @Test
    void aScaleDownWaitsForDownscaleSoTheAutoscalerCannotRecreateWhatItRemoves() {
        f.create(MIN_2_MAX_6);
        f.fleet().operations().scaleUp("pong", 6);
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);
        HeldLock other = f.fleet().locks().newScope().tryAcquire(LockId.of("pong", LockKind.DOWNSCALE)).orElseThrow();

        CompletableFuture<Integer> removed = f.fleet().operations().scaleDown("pong", 3);
        f.advance(Duration.ofSeconds(30));
        assertThat(removed).as("recorded; the watcher waits for DOWNSCALE").isNotDone();
        assertThat(f.rooms()).hasSize(6);

        other.release();
        f.advance(Duration.ofSeconds(30));

        assertThat(removed).isCompletedWithValue(3);
        assertThat(f.rooms()).hasSize(3);
        assertThat(f.fleet().locks().newScope().tryAcquire(LockId.of("pong", LockKind.DOWNSCALE))).as("let go").isPresent();
    }
}
