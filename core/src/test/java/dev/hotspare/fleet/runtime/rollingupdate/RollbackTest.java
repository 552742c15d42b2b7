package dev.hotspare.fleet.runtime.rollingupdate;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.runtime.FleetFixture;
import dev.hotspare.fleet.runtime.SchedulerOperations.UpdateHandle;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member.MemberPhase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Rollbacks record a new major version that says what it restored; maxSurge may be a number of rooms. */
class RollbackTest {

    private static final String V1 = "name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 4}\n";

    private FleetFixture f = new FleetFixture();

    @AfterEach
    void close() {
        f.close();
    }

    private void fourReadyRooms() {
        f.fleet().start();
        f.advance(Duration.ofSeconds(20));
        f.report(RoomStatus.READY);
    }

    @Test
    void aRollbackRecordsANewMajorVersionThatSaysWhichVersionItRestored() {
        f.create(V1);
        fourReadyRooms();
        UpdateHandle image = f.fleet().operations().updateImage("pong", Optional.of("pong:2"));
        f.advance(Duration.ofMinutes(1));
        assertThat(image.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);

        UpdateHandle rollback = f.fleet().operations().rollback("pong", SchedulerVersion.FIRST);
        f.advance(Duration.ofMinutes(1));

        assertThat(rollback.version()).isEqualTo(new SchedulerVersion(3, 0));
        assertThat(rollback.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(f.fleet().operations().releases("pong")).extracting(Release::version, Release::rolledBackTo).containsExactly(
                tuple(SchedulerVersion.FIRST, Optional.empty()),
                tuple(new SchedulerVersion(2, 0), Optional.empty()),
                tuple(new SchedulerVersion(3, 0), Optional.of(SchedulerVersion.FIRST)));
        assertThat(f.status().rolledBackTo()).contains(SchedulerVersion.FIRST);
        assertThat(f.versions()).hasSize(4).containsOnly("v3.0");
    }

    @Test
    void aReplaceMovesTheStatusesWithTheRoomsSoTheAutoscalerNeverSeesMoreRoomsThanThereAre() {
        // max 6 with 4 rooms: a replaced room's status left behind would count as active (4 old + 4 new = 8 > max)
        // and the next tick would remove live rooms to get under max.
        f.create("name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 4, max: 6}\n");
        fourReadyRooms();
        UpdateHandle image = f.fleet().operations().updateImage("pong", Optional.of("pong:2"));
        for (int second = 0; second < 60; second++) {
            f.advance(Duration.ofSeconds(1));
            f.report(RoomStatus.READY);
            assertThat(f.status().rooms().active()).as("statuses counted as active, second " + second)
                    .isLessThanOrEqualTo(f.rooms().size());
        }
        assertThat(image.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(f.rooms()).hasSize(4);
        assertThat(f.versions()).containsOnly("v2.0");
        assertThat(f.status().rooms().active()).isEqualTo(4);
    }

    @Test
    void aRollbackIsAMajorVersionEvenWhenOnlyAMinorFieldDiffers() {
        f.create(V1);
        fourReadyRooms();
        assertThat(f.fleet().operations().updateMin("pong", Optional.of(3)).version()).isEqualTo(new SchedulerVersion(1, 1));

        UpdateHandle rollback = f.fleet().operations().rollback("pong", SchedulerVersion.FIRST);
        f.advance(Duration.ofMinutes(1));

        assertThat(rollback.version()).as("v1.1 -> v2.0, not v1.2").isEqualTo(new SchedulerVersion(2, 0));
        assertThat(f.fleet().operations().releases("pong").get(2).rolledBackTo()).contains(SchedulerVersion.FIRST);
        assertThat(f.versions()).as("every room is on the new major").containsOnly("v2.0");

        UpdateHandle again = f.fleet().operations().rollback("pong", SchedulerVersion.FIRST);
        assertThat(again.version()).as("the config is already v1.0's: nothing to roll back").isEqualTo(new SchedulerVersion(2, 0));
        assertThat(f.status().rolledBackTo()).contains(SchedulerVersion.FIRST);
    }

    @Test
    void aFailedUpdateRollsBackToAVersionThatSaysWhatItRestored() {
        f.close();
        // New rooms take 10 minutes to start; the replace times out after 30 s.
        f = new FleetFixture(Duration.ofMinutes(10), b -> b.replaceTimeout(Duration.ofSeconds(30)));
        f.create(V1);
        f.addRooms(2);

        UpdateHandle image = f.fleet().operations().updateImage("pong", Optional.of("pong:2"));
        f.advance(Duration.ofMinutes(2));

        assertThat(image.outcome()).isCompletedWithValue(OperationStatus.TIMEDOUT);
        java.util.List<Release> releases = f.fleet().operations().releases("pong");
        assertThat(releases).extracting(Release::version, Release::rolledBackTo).containsExactly(
                tuple(SchedulerVersion.FIRST, Optional.empty()),
                tuple(new SchedulerVersion(2, 0), Optional.empty()),
                tuple(new SchedulerVersion(3, 0), Optional.of(SchedulerVersion.FIRST)));
        assertThat(releases.get(1).status()).isEqualTo(OperationStatus.TIMEDOUT);
        assertThat(f.status().rolledBackTo()).contains(SchedulerVersion.FIRST);
    }

    @Test
    void maxSurgeFromTheConfigMayBeANumberOfRooms() {
        f.create(V1.replace("autoscaling", "maxSurge: \"3\"\nautoscaling"));
        fourReadyRooms();
        int[] mostStarting = new int[1];
        UpdateHandle image = f.fleet().operations().updateImage("pong", Optional.of("pong:2"));
        for (int second = 0; second < 60 && !image.outcome().isDone(); second++) {
            f.advance(Duration.ofSeconds(1));
            int starting = (int) f.driver().list("pong").stream()
                    .filter(m -> m.templateVersion().equals("v2.0") && m.phase() != MemberPhase.READY).count();
            mostStarting[0] = Math.max(mostStarting[0], starting);
        }
        assertThat(image.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(mostStarting[0]).as("three rooms at a time, as the config says (25% of 4 would be 1)").isEqualTo(3);
        assertThat(f.versions()).containsOnly("v2.0");
    }
}
