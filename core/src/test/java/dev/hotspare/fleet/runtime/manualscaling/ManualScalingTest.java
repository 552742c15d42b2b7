package dev.hotspare.fleet.runtime.manualscaling;

import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.AutoscalerSettings;
import dev.hotspare.fleet.runtime.FleetFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Manual scale-up, scale-down and replicas respect min, max and the scale-up cap exactly as the watcher does. */
class ManualScalingTest {

    private static final String MIN_2_MAX_6 = "name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 2, max: 6}\n";

    private FleetFixture f = new FleetFixture();

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void scaleUpNeverGoesAboveMax() {
        f.create(MIN_2_MAX_6);
        assertThat(f.fleet().scaling().scaleUp("pong", 4)).isEqualTo(4);
        // Maestro 9: at 4 rooms with max 6, scaleup 4 adds 2 (hotspare added 4 before).
        assertThat(f.fleet().scaling().scaleUp("pong", 4)).isEqualTo(2);
        assertThat(f.rooms()).hasSize(6);
        assertThat(f.fleet().scaling().scaleUp("pong", 1)).as("at max").isZero();
        assertThat(f.rooms()).hasSize(6);
    }

    @Test
    void scaleDownNeverGoesBelowMinAndTakesOnlyReadyRooms() {
        f.create(MIN_2_MAX_6);
        f.fleet().scaling().scaleUp("pong", 6);
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);
        String busy = f.rooms().get(0);
        f.report(busy, RoomStatus.OCCUPIED);

        CompletableFuture<Integer> removed = f.fleet().scaling().scaleDown("pong", 10);
        f.advance(Duration.ofSeconds(10));

        assertThat(removed).isCompletedWithValue(4);
        assertThat(f.rooms()).hasSize(2).contains(busy);
        CompletableFuture<Integer> none = f.fleet().scaling().scaleDown("pong", 1);
        f.advance(Duration.ofSeconds(1));
        assertThat(none).as("at min").isCompletedWithValue(0);
    }

    @Test
    void aScaleDownWithMinZeroReportsTheClampedAmountOfRoomsRemovedNotTheRequestedOne() {
        // Item 10 of issue 27, kept ▲: Maestro answers with the amount asked (5); the same 3 rooms go either way,
        // and hotspare says how many did.
        f.create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 0, max: 6}\n");
        f.fleet().scaling().scaleUp("pong", 3);
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);
        CompletableFuture<Integer> removed = f.fleet().scaling().scaleDown("pong", 5);
        f.advance(Duration.ofSeconds(10));
        assertThat(removed).isCompletedWithValue(3);
        assertThat(f.rooms()).isEmpty();
    }

    @Test
    void aManualScaleUpThatWouldEndBelowMinIsRaisedToMin() {
        // Item 7 of issue 27 on the runtime: 0 rooms, min 2, scaleup 1 creates 2 (Maestro's SetScalingAmount).
        f.create(MIN_2_MAX_6);
        assertThat(f.fleet().scaling().scaleUp("pong", 1)).isEqualTo(2);
        assertThat(f.rooms()).hasSize(2);
    }

    @Test
    void replicasAreClampedToMinAndMax() {
        f.create(MIN_2_MAX_6);
        CompletableFuture<Integer> up = f.fleet().scaling().scaleTo("pong", 9);
        assertThat(up).as("9 asked, max 6").isCompletedWithValue(6);
        f.advance(Duration.ofSeconds(5));
        f.report(RoomStatus.READY);

        CompletableFuture<Integer> down = f.fleet().scaling().scaleTo("pong", 0);
        f.advance(Duration.ofSeconds(10));
        assertThat(down).as("0 asked, min 2").isCompletedWithValue(-4);
        assertThat(f.rooms()).hasSize(2);
        assertThat(f.fleet().scaling().scaleTo("pong", 1)).isCompletedWithValue(0);
    }

    @Test
    void oneScaleUpAddsAtMostTheAutoscalersScaleUpCap() {
        f.close();
        f = new FleetFixture(b -> b.autoscaler(Autoscaler.builder()
                .settings(new AutoscalerSettings(Duration.ofSeconds(10), 3)).build()));
        f.create("name: pong\ngame: pong\nimage: pong:1\n");
        assertThat(f.fleet().scaling().scaleUp("pong", 10)).isEqualTo(3);
        assertThat(f.fleet().scaling().scaleTo("pong", 10)).isCompletedWithValue(3);
        assertThat(f.rooms()).hasSize(6);
    }
}
