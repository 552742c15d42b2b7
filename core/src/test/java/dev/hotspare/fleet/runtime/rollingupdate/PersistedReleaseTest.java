package dev.hotspare.fleet.runtime.rollingupdate;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.plan.ReleaseState;
import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.runtime.FleetFixture;
import dev.hotspare.fleet.runtime.SchedulerOperations.ErrorCode;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerOperationException;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.pool.Member.DesiredPower;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a new owner does with the release state another one saved: resume, settle, or make an update wait. */
class PersistedReleaseTest {

    private static final String V1 = "name: pong\ngame: pong\nimage: pong:1\nautoscaling: {min: 2}\n";
    private static final SchedulerVersion V2 = new SchedulerVersion(2, 0);

    private final InMemorySchedulerStore store = new InMemorySchedulerStore();
    private final FleetFixture f = new FleetFixture(b -> b.schedulerStore(store));

    @AfterEach
    void close() {
        f.close();
    }

    /** What an owner leaves when it dies right after saving {@code state} for v2.0. */
    private void leftBehind(ReleaseState state) {
        store.create("pong", ConfigDocument.of(V1), "in-sync", f.now());
        store.saveVersion("pong", V2, ConfigDocument.of(V1.replace("pong:1", "pong:2")), f.now(), new Fence("scheduler.pong.config", 1));
        store.saveRelease("pong", state, 0, new Fence("scheduler.pong.config", 1));
    }

    @Test
    void aFinishedReleaseWhoseOwnerDiedBeforeRecordingItsStatusGetsItFromTheNextOwner() {
        ReleaseState deployed = new ReleaseState(V2, Optional.of(SchedulerVersion.FIRST), ReleasePhase.DEPLOYED, MaxSurge.DEFAULT,
                Duration.ofMinutes(10), f.now().plus(Duration.ofMinutes(10)), 1, List.of(), 2, Optional.empty(), Optional.empty());
        leftBehind(deployed);

        f.fleet().start();
        f.advance(Duration.ofSeconds(30));

        assertThat(store.releases("pong")).extracting(Release::status).containsExactly(OperationStatus.DEPLOYED, OperationStatus.DEPLOYED);
    }

    @Test
    void anUpdateWaitsForAReleaseLeftInProgressUntilTheWatcherHasResumedIt() {
        // Two rooms on v1.0, ready; the owner died right after saving the release, before its first chunk.
        f.driver().create("pong", "v1.0", DesiredPower.RUNNING);
        f.driver().create("pong", "v1.0", DesiredPower.RUNNING);
        f.advance(Duration.ofSeconds(10));
        leftBehind(ReleaseState.start(V2, Optional.of(SchedulerVersion.FIRST), MaxSurge.DEFAULT, Duration.ofMinutes(10), f.now()));

        assertThatThrownBy(() -> f.fleet().operations().updateImage("pong", Optional.of("pong:3")))
                .isInstanceOf(SchedulerOperationException.class)
                .satisfies(e -> assertThat(((SchedulerOperationException) e).code()).isEqualTo(ErrorCode.LOCKED));
        assertThat(store.releases("pong")).hasSize(2);

        f.fleet().start();
        for (int second = 0; second < 120; second++) {
            f.advance(Duration.ofSeconds(1));
            f.report(RoomStatus.READY);
        }

        assertThat(store.loadRelease("pong").orElseThrow().state().phase()).isEqualTo(ReleasePhase.DEPLOYED);
        assertThat(store.releases("pong")).extracting(Release::status).containsExactly(OperationStatus.DEPLOYED, OperationStatus.DEPLOYED);
        assertThat(f.versions()).hasSize(2).containsOnly("v2.0");
        assertThat(f.fleet().operations().updateImage("pong", Optional.of("pong:3")).version()).isEqualTo(new SchedulerVersion(3, 0));
    }
}
