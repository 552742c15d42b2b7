package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.lock.Fence.StaleFenceException;
import dev.hotspare.fleet.plan.ReleaseState;
import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException;
import dev.hotspare.fleet.spi.SchedulerStore.StaleReleaseException;
import dev.hotspare.fleet.spi.SchedulerStore.VersionedRelease;
import dev.hotspare.fleet.spi.VersionedScaleInputs;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The contract every {@link SchedulerStore} passes (in memory here; PostgreSQL in its module). A backend
 * subclasses it and implements {@link #createStore()}. Every test uses fresh random scheduler names and lock
 * keys, so the suite can run against a shared database. Instants are whole milliseconds, which every backend
 * stores exactly.
 */
public abstract class SchedulerStoreContract {

    /** A config as a user would submit it, comments included. */
    protected static final String V1 = "# pong rooms\nname: NAME\ngame: pong\nimage: pong/pong:v1\nautoscaling:\n  min: 2\n";
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    protected SchedulerStore store;
    /** A fresh scheduler name for this test. */
    protected String name;
    /** A fresh lock key for this test's fences. */
    protected String lockKey;

    /**
     * Creates the store under test; called before every test.
     */
    protected abstract SchedulerStore createStore();

    @BeforeEach
    void createStoreAndNames() {
        store = createStore();
        String suffix = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
        name = "s" + suffix;
        lockKey = "scheduler." + name + ".config";
    }

    protected ConfigDocument config(String image) {
        return ConfigDocument.of(V1.replace("NAME", name).replace("pong/pong:v1", image));
    }

    protected Fence fence(long token) {
        return new Fence(lockKey, token);
    }

    @Test
    void createStoresTheFirstVersionDeployedWithTheConfigExactlyAsSubmitted() {
        assertThat(store.create(name, config("pong/pong:v1"), "creating", T0)).isTrue();

        SchedulerRecord record = store.get(name).orElseThrow();
        assertThat(record.name()).isEqualTo(name);
        assertThat(record.version()).isEqualTo(SchedulerVersion.FIRST);
        assertThat(record.config().submitted()).isEqualTo(config("pong/pong:v1").submitted()).startsWith("# pong rooms");
        assertThat(record.config().tree()).isEqualTo(config("pong/pong:v1").tree());
        assertThat(record.state()).isEqualTo("creating");
        assertThat(record.stateLastChangedAt()).isEqualTo(T0);
        assertThat(record.createdAt()).isEqualTo(T0);
        assertThat(record.lastScaleAt()).isEmpty();
        assertThat(store.releases(name)).extracting(Release::version, Release::status)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(SchedulerVersion.FIRST, OperationStatus.DEPLOYED));
    }

    @Test
    void creatingAnExistingSchedulerChangesNothing() {
        store.create(name, config("pong/pong:v1"), "creating", T0);

        assertThat(store.create(name, config("pong/pong:v9"), "in-sync", T0.plusSeconds(1))).isFalse();
        assertThat(store.get(name).orElseThrow().config().tree().get("image").asString()).isEqualTo("pong/pong:v1");
    }

    @Test
    void listIsOrderedByNameAndGetOfAnUnknownNameIsEmpty() {
        String later = name + "-b";
        store.create(later, config("x"), "in-sync", T0);
        store.create(name, config("y"), "in-sync", T0);

        assertThat(store.list()).extracting(SchedulerRecord::name).containsSubsequence(name, later);
        assertThat(store.get(name + "-zzz")).isEmpty();
        assertThat(store.releases(name + "-zzz")).isEmpty();
    }

    @Test
    void savingAVersionMakesItCurrentAndKeepsEveryRelease() {
        store.create(name, config("pong/pong:v1"), "in-sync", T0);

        SchedulerVersion v2 = new SchedulerVersion(2, 0);
        SchedulerVersion v21 = new SchedulerVersion(2, 1);
        store.saveVersion(name, v2, config("pong/pong:v2"), T0.plusSeconds(60), fence(1));
        SchedulerRecord record = store.saveVersion(name, v21, config("pong/pong:v2b"), T0.plusSeconds(120), fence(1));

        assertThat(record.version()).isEqualTo(v21);
        assertThat(store.get(name).orElseThrow().version()).isEqualTo(v21);
        assertThat(store.get(name).orElseThrow().config().tree().get("image").asString()).isEqualTo("pong/pong:v2b");
        assertThat(store.releases(name)).extracting(Release::version).containsExactly(SchedulerVersion.FIRST, v2, v21);
        Release second = store.release(name, v2).orElseThrow();
        assertThat(second.createdAt()).isEqualTo(T0.plusSeconds(60));
        assertThat(second.status()).isEqualTo(OperationStatus.IN_PROGRESS);
        assertThat(second.config().tree().get("image").asString()).isEqualTo("pong/pong:v2");
        assertThat(store.release(name, new SchedulerVersion(7, 0))).isEmpty();
    }

    @Test
    void aRollbackReleaseSaysWhichVersionItRestored() {
        store.create(name, config("pong/pong:v1"), "in-sync", T0);
        SchedulerVersion v2 = new SchedulerVersion(2, 0);
        SchedulerVersion v3 = new SchedulerVersion(3, 0);
        store.saveVersion(name, v2, config("pong/pong:v2"), T0.plusSeconds(60), fence(1));

        SchedulerRecord record = store.saveRollback(name, v3, SchedulerVersion.FIRST, config("pong/pong:v1"),
                T0.plusSeconds(120), fence(1));

        assertThat(record.version()).isEqualTo(v3);
        assertThat(store.get(name).orElseThrow().config().tree().get("image").asString()).isEqualTo("pong/pong:v1");
        assertThat(store.releases(name)).extracting(Release::version, Release::rolledBackTo).containsExactly(
                org.assertj.core.groups.Tuple.tuple(SchedulerVersion.FIRST, Optional.empty()),
                org.assertj.core.groups.Tuple.tuple(v2, Optional.empty()),
                org.assertj.core.groups.Tuple.tuple(v3, Optional.of(SchedulerVersion.FIRST)));
        store.setStatus(name, v3, OperationStatus.DEPLOYED, fence(1));
        assertThat(store.release(name, v3).orElseThrow())
                .as("a status change keeps what it rolled back to")
                .extracting(Release::status, Release::rolledBackTo)
                .containsExactly(OperationStatus.DEPLOYED, Optional.of(SchedulerVersion.FIRST));
        assertThatThrownBy(() -> store.saveRollback(name, v2, SchedulerVersion.FIRST, config("x"), T0, fence(1)))
                .as("a rollback is a newer version too").isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aVersionMustBeNewerThanTheCurrentOne() {
        store.create(name, config("a"), "in-sync", T0);
        store.saveVersion(name, new SchedulerVersion(2, 0), config("b"), T0, fence(1));

        assertThatThrownBy(() -> store.saveVersion(name, new SchedulerVersion(1, 5), config("c"), T0, fence(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version").hasMessageContaining("v1.5");
        assertThatThrownBy(() -> store.saveVersion(name, new SchedulerVersion(2, 0), config("c"), T0, fence(1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(store.releases(name)).hasSize(2);
    }

    @Test
    void everyOperationStatusCanBeRecorded() {
        store.create(name, config("a"), "creating", T0);
        SchedulerVersion v2 = new SchedulerVersion(2, 0);
        store.saveVersion(name, v2, config("b"), T0, fence(1));
        for (OperationStatus status : OperationStatus.values()) {
            store.setStatus(name, v2, status, fence(1));
            assertThat(store.release(name, v2).orElseThrow().status()).isEqualTo(status);
        }
    }

    @Test
    void statusStateAndLastScaleAreRecorded() {
        store.create(name, config("a"), "creating", T0);
        SchedulerVersion v2 = new SchedulerVersion(2, 0);
        store.saveVersion(name, v2, config("b"), T0, fence(1));

        store.setStatus(name, v2, OperationStatus.TIMEDOUT, fence(1));
        store.setState(name, "in-sync", T0.plusSeconds(5), fence(1));
        store.setState(name, "in-sync", T0.plusSeconds(9), fence(1));
        store.setLastScaleAt(name, T0.plusSeconds(7), fence(1));

        assertThat(store.release(name, v2).orElseThrow().status()).isEqualTo(OperationStatus.TIMEDOUT);
        SchedulerRecord record = store.get(name).orElseThrow();
        assertThat(record.state()).isEqualTo("in-sync");
        assertThat(record.stateLastChangedAt()).as("unchanged state keeps its timestamp").isEqualTo(T0.plusSeconds(5));
        assertThat(record.lastScaleAt()).contains(T0.plusSeconds(7));
        assertThatThrownBy(() -> store.setStatus(name, new SchedulerVersion(9, 0), OperationStatus.DEPLOYED, fence(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("v9.0");
    }

    @Test
    void aWriteWithAnOlderFencingTokenIsRejectedAndChangesNothing() {
        store.create(name, config("a"), "in-sync", T0);
        store.setLastScaleAt(name, T0.plusSeconds(10), fence(5));

        assertThatThrownBy(() -> store.setLastScaleAt(name, T0.plusSeconds(20), fence(4)))
                .isInstanceOf(StaleFenceException.class).hasMessageContaining(lockKey).hasMessageContaining("4");
        assertThatThrownBy(() -> store.saveVersion(name, new SchedulerVersion(2, 0), config("b"), T0, fence(3)))
                .isInstanceOf(StaleFenceException.class);
        assertThatThrownBy(() -> store.setState(name, "terminating", T0, fence(1))).isInstanceOf(StaleFenceException.class);
        assertThatThrownBy(() -> store.delete(name, fence(2))).isInstanceOf(StaleFenceException.class);

        SchedulerRecord record = store.get(name).orElseThrow();
        assertThat(record.lastScaleAt()).contains(T0.plusSeconds(10));
        assertThat(record.version()).isEqualTo(SchedulerVersion.FIRST);
        assertThat(record.state()).isEqualTo("in-sync");

        store.setLastScaleAt(name, T0.plusSeconds(30), fence(5));
        store.setLastScaleAt(name, T0.plusSeconds(40), fence(6));
        assertThat(store.get(name).orElseThrow().lastScaleAt()).contains(T0.plusSeconds(40));
    }

    @Test
    void tokensOfDifferentLockKeysAreNotCompared() {
        store.create(name, config("a"), "in-sync", T0);
        store.setLastScaleAt(name, T0, new Fence("scheduler." + name + ".termination", 100));

        store.setLastScaleAt(name, T0.plusSeconds(1), new Fence("scheduler." + name + ".downscale", 1));

        assertThat(store.get(name).orElseThrow().lastScaleAt()).contains(T0.plusSeconds(1));
    }

    @Test
    void deleteRemovesTheSchedulerAndItsReleases() {
        store.create(name, config("a"), "in-sync", T0);
        store.saveVersion(name, new SchedulerVersion(1, 1), config("b"), T0, fence(1));

        assertThat(store.delete(name, fence(2))).isTrue();
        assertThat(store.delete(name, fence(2))).isFalse();
        assertThat(store.get(name)).isEmpty();
        assertThat(store.releases(name)).isEmpty();
        assertThat(store.create(name, config("c"), "creating", T0.plus(Duration.ofHours(1)))).isTrue();
        assertThat(store.releases(name)).hasSize(1);
    }

    @Test
    void writesToAnUnknownSchedulerSayItWasNotFound() {
        assertThatThrownBy(() -> store.saveVersion(name, new SchedulerVersion(2, 0), config("a"), T0, fence(1)))
                .isInstanceOf(SchedulerNotFoundException.class).hasMessageContaining(name);
        assertThatThrownBy(() -> store.setState(name, "in-sync", T0, fence(1))).isInstanceOf(SchedulerNotFoundException.class);
        assertThatThrownBy(() -> store.setLastScaleAt(name, T0, fence(1))).isInstanceOf(SchedulerNotFoundException.class);
        assertThatThrownBy(() -> store.setStatus(name, SchedulerVersion.FIRST, OperationStatus.DEPLOYED, fence(1)))
                .isInstanceOf(SchedulerNotFoundException.class);
    }

    /** A release in flight, with every optional part present, as the machine would save it mid-rollback. */
    protected static ReleaseState rollingBack() {
        return new ReleaseState(new SchedulerVersion(2, 0), Optional.of(SchedulerVersion.FIRST), ReleasePhase.ROLLING_BACK,
                MaxSurge.rooms(3), Duration.ofMinutes(5), T0.plusSeconds(301), 3, List.of("room-a", "room-b"), 2,
                Optional.of(ReleasePhase.TIMED_OUT), Optional.empty());
    }

    @Test
    void aReleaseIsSavedWithAnExpectedVersionAndReadBackEqual() {
        store.create(name, config("a"), "in-sync", T0);
        assertThat(store.loadRelease(name)).isEmpty();
        ReleaseState started = ReleaseState.start(new SchedulerVersion(2, 0), Optional.of(SchedulerVersion.FIRST),
                MaxSurge.DEFAULT, Duration.ofMinutes(5), T0);

        assertThat(store.saveRelease(name, started, 0, fence(1))).isEqualTo(1);
        assertThat(store.loadRelease(name)).contains(new VersionedRelease(started, 1));
        assertThat(store.saveRelease(name, rollingBack(), 1, fence(1))).isEqualTo(2);
        assertThat(store.loadRelease(name)).contains(new VersionedRelease(rollingBack(), 2));
    }

    @Test
    void aReleaseSaveWithAnotherExpectedVersionIsRefusedAndChangesNothing() {
        store.create(name, config("a"), "in-sync", T0);
        ReleaseState started = ReleaseState.start(new SchedulerVersion(2, 0), Optional.of(SchedulerVersion.FIRST),
                MaxSurge.DEFAULT, Duration.ofMinutes(5), T0);
        store.saveRelease(name, started, 0, fence(1));

        assertThatThrownBy(() -> store.saveRelease(name, rollingBack(), 0, fence(1)))
                .isInstanceOf(StaleReleaseException.class).hasMessageContaining(name);
        assertThatThrownBy(() -> store.saveRelease(name, rollingBack(), 2, fence(1))).isInstanceOf(StaleReleaseException.class);
        store.setLastScaleAt(name, T0, fence(5));
        assertThatThrownBy(() -> store.saveRelease(name, rollingBack(), 1, fence(4))).isInstanceOf(StaleFenceException.class);
        assertThat(store.loadRelease(name)).contains(new VersionedRelease(started, 1));
    }

    @Test
    void aReleaseGoesWithItsSchedulerAndNeedsOne() {
        ReleaseState started = ReleaseState.start(new SchedulerVersion(2, 0), Optional.of(SchedulerVersion.FIRST),
                MaxSurge.DEFAULT, Duration.ofMinutes(5), T0);
        assertThatThrownBy(() -> store.saveRelease(name, started, 0, fence(1))).isInstanceOf(SchedulerNotFoundException.class);
        store.create(name, config("a"), "in-sync", T0);
        store.saveRelease(name, started, 0, fence(1));

        store.delete(name, fence(2));
        store.create(name, config("a"), "in-sync", T0);

        assertThat(store.loadRelease(name)).isEmpty();
    }

    @Test
    void scaleInputsAreSavedWithAnExpectedVersionAndReadBackEqual() {
        assertThat(store.loadScaleInputs(name)).isEqualTo(VersionedScaleInputs.NONE);
        store.create(name, config("a"), "in-sync", T0);
        assertThat(store.loadScaleInputs(name)).isEqualTo(VersionedScaleInputs.NONE);
        ScaleInputs.Request up = new ScaleInputs.Request("r1", ScaleInputs.Kind.UP, 3, T0);
        ScaleInputs queued = ScaleInputs.EMPTY.withRequest(up).withPanic(T0);

        assertThat(store.saveScaleInputs(name, queued, 0)).isTrue();
        assertThat(store.loadScaleInputs(name)).isEqualTo(new VersionedScaleInputs(queued, 1));
        ScaleInputs applying = queued.start(new ScaleInputs.Applying(up, 7, 3, java.util.List.of()));
        assertThat(store.saveScaleInputs(name, applying, 1)).isTrue();
        ScaleInputs done = applying.finish(new ScaleInputs.Outcome("r1", 3, java.util.List.of())).withoutPanic();
        assertThat(store.saveScaleInputs(name, done, 2)).isTrue();
        assertThat(store.loadScaleInputs(name)).isEqualTo(new VersionedScaleInputs(done, 3));
    }

    @Test
    void aScaleInputsSaveWithAnotherExpectedVersionChangesNothingAndTheyGoWithTheirScheduler() {
        ScaleInputs one = ScaleInputs.EMPTY.withRequest(new ScaleInputs.Request("r1", ScaleInputs.Kind.DOWN, 1, T0));
        assertThatThrownBy(() -> store.saveScaleInputs(name, one, 0)).isInstanceOf(SchedulerNotFoundException.class);
        store.create(name, config("a"), "in-sync", T0);
        assertThat(store.saveScaleInputs(name, one, 0)).isTrue();

        ScaleInputs two = one.withRequest(new ScaleInputs.Request("r2", ScaleInputs.Kind.REPLICAS, 0, T0));
        assertThat(store.saveScaleInputs(name, two, 0)).isFalse();
        assertThat(store.saveScaleInputs(name, two, 2)).isFalse();
        assertThat(store.loadScaleInputs(name)).isEqualTo(new VersionedScaleInputs(one, 1));

        store.delete(name, fence(1));
        store.create(name, config("a"), "in-sync", T0);
        assertThat(store.loadScaleInputs(name)).isEqualTo(VersionedScaleInputs.NONE);
    }

    @Test
    void namesThatAreNotDns1123LabelsAreRejectedBeforeAnyIo() {
        for (String bad : new String[] {"", "Pong", "a:b", "a b", "a'; drop table x; --", "x".repeat(64)}) {
            assertThatThrownBy(() -> store.create(bad, config("a"), "creating", T0)).as(bad)
                    .isInstanceOf(ValidationException.class).hasMessageContaining("name");
            assertThatThrownBy(() -> store.get(bad)).as(bad).isInstanceOf(ValidationException.class);
        }
        assertThat(Optional.of(store.list())).isPresent();
    }
}
