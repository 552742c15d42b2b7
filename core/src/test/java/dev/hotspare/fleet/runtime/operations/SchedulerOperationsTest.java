package dev.hotspare.fleet.runtime.operations;

import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.SchedulerOperations.ErrorCode;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerOperationException;
import dev.hotspare.fleet.runtime.SchedulerOperations.UpdateHandle;
import dev.hotspare.fleet.runtime.SchedulerOperations.VersionDiff;
import dev.hotspare.fleet.runtime.internal.FleetParts;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.versions.ConfigDiff.ChangeKind;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchedulerOperationsTest {

    private static final String V1 = """
            name: pong
            game: pong
            image: pong/pong:v1
            autoscaling:
              min: 2
            """;

    private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
    private final InMemoryLockStore lockStore = new InMemoryLockStore(scheduler.clock());
    private final List<String> lockLog = Collections.synchronizedList(new ArrayList<>());
    private final LockManager locks = LockManager.builder().lockStore(recording(lockStore)).scheduler(scheduler).build();
    private final InMemorySchedulerStore store = new InMemorySchedulerStore();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(scheduler)
            .installTime(Duration.ofSeconds(30)).deleteTime(Duration.ofSeconds(10)).build();
    private final SchedulerOperations ops = FleetParts.operations(store, locks, driver, scheduler)
            .settings(dev.hotspare.fleet.runtime.FleetSettings.builder().replaceTimeout(Duration.ofMinutes(4)).build()).build();

    /** Logs every acquisition and release of a lock key, in order. */
    private LockStore recording(LockStore delegate) {
        return new LockStore() {
            public Optional<Lease> tryAcquire(String key, Duration ttl) {
                Optional<Lease> lease = delegate.tryAcquire(key, ttl);
                lease.ifPresent(l -> lockLog.add("+" + key.substring(key.lastIndexOf('.') + 1)));
                return lease;
            }

            public Optional<Lease> renew(Lease lease, Duration ttl) {
                return delegate.renew(lease, ttl);
            }

            public boolean release(Lease lease) {
                lockLog.add("-" + lease.key().substring(lease.key().lastIndexOf('.') + 1));
                return delegate.release(lease);
            }

            public Optional<Lease> inspect(String key) {
                return delegate.inspect(key);
            }

            public List<Lease> list(String prefix) {
                return delegate.list(prefix);
            }

            public boolean forceRelease(String key) {
                return delegate.forceRelease(key);
            }
        };
    }

    private List<String> heldLocks() {
        return lockStore.list("scheduler.pong.").stream().map(l -> l.key().substring(l.key().lastIndexOf('.') + 1)).toList();
    }

    private List<Member> rooms() {
        return driver.list("pong").stream().filter(m -> m.phase() != MemberPhase.DELETING).toList();
    }

    @BeforeEach
    void eightReadyRoomsOnV1() {
        ops.create(V1);
        // Manual scaling is the watcher's to apply (ManualScalingTest); these tests need only rooms to replace.
        for (int i = 0; i < 8; i++) {
            driver.create("pong", "v1.0", dev.hotspare.pool.Member.DesiredPower.RUNNING);
        }
        scheduler.advanceBy(Duration.ofMinutes(1));
        lockLog.clear();
    }

    @Test
    void aMajorUpdateReturnsAtOnceThenReplacesInChunksUnderConfigAndDownscale() {
        UpdateHandle handle = ops.updateImage("pong", Optional.of("pong/pong:v2"));

        assertThat(handle.version()).isEqualTo(new SchedulerVersion(2, 0));
        assertThat(handle.diff().kind()).isEqualTo(ChangeKind.MAJOR);
        assertThat(handle.outcome()).as("update returns before the replace finishes").isNotDone();
        assertThat(lockLog).containsExactly("+config", "+scale", "-scale", "+downscale");
        assertThat(heldLocks()).containsExactlyInAnyOrder("config", "downscale");
        // maxSurge 25% of 8 rooms = 2 at a time: 8 rooms stay, 2 of them new.
        assertThat(rooms()).hasSize(8);
        assertThat(rooms()).filteredOn(m -> m.templateVersion().equals("v2.0")).hasSize(2);

        scheduler.advanceBy(Duration.ofMinutes(5));

        assertThat(handle.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(rooms()).hasSize(8).allMatch(m -> m.templateVersion().equals("v2.0"));
        assertThat(lockLog).containsExactly("+config", "+scale", "-scale", "+downscale", "-downscale", "-config");
        assertThat(heldLocks()).isEmpty();
        assertThat(store.releases("pong")).extracting(Release::version, Release::status).containsExactly(
                org.assertj.core.groups.Tuple.tuple(SchedulerVersion.FIRST, OperationStatus.DEPLOYED),
                org.assertj.core.groups.Tuple.tuple(new SchedulerVersion(2, 0), OperationStatus.DEPLOYED));
    }

    @Test
    void aMinorUpdateSavesAndReleasesWithoutTouchingRooms() {
        List<String> before = rooms().stream().map(Member::id).toList();

        UpdateHandle handle = ops.updateMin("pong", Optional.of(5));

        assertThat(handle.version()).isEqualTo(new SchedulerVersion(1, 1));
        assertThat(handle.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(lockLog).containsExactly("+config", "+scale", "-scale", "-config");
        assertThat(rooms()).extracting(Member::id).containsExactlyElementsOf(before);
        assertThat(ops.config("pong", Optional.empty())).contains("min: 5");
    }

    @Test
    void anUnchangedImageOrMinIsANoOp() {
        assertThat(ops.updateImage("pong", Optional.of("pong/pong:v1")).diff().kind()).isEqualTo(ChangeKind.NONE);
        assertThat(ops.updateMin("pong", Optional.of(2)).version()).isEqualTo(SchedulerVersion.FIRST);
        assertThat(store.releases("pong")).hasSize(1);
        assertThat(heldLocks()).isEmpty();
    }

    @Test
    void aTimeoutRollsBackToThePreviousConfigAsANewMajor() {
        InMemoryMemberDriver slowDriver = InMemoryMemberDriver.builder(scheduler).installTime(Duration.ofMinutes(3)).build();
        SchedulerOperations slowOps = FleetParts.operations(store, locks, slowDriver, scheduler)
                .settings(dev.hotspare.fleet.runtime.FleetSettings.builder().replaceTimeout(Duration.ofMinutes(2)).build()).build();
        for (int i = 0; i < 4; i++) {
            slowDriver.create("pong", "v1.0", dev.hotspare.pool.Member.DesiredPower.RUNNING);
        }
        scheduler.advanceBy(Duration.ofMinutes(5));
        lockLog.clear();

        UpdateHandle handle = slowOps.updateImage("pong", Optional.of("pong/pong:v2"));
        scheduler.advanceBy(Duration.ofMinutes(10));

        assertThat(handle.outcome()).isCompletedWithValue(OperationStatus.TIMEDOUT);
        assertThat(store.release("pong", new SchedulerVersion(2, 0))).map(Release::status).contains(OperationStatus.TIMEDOUT);
        Release restored = store.release("pong", new SchedulerVersion(3, 0)).orElseThrow();
        assertThat(restored.config().tree().get("image").asString()).isEqualTo("pong/pong:v1");
        assertThat(store.get("pong").orElseThrow().version()).isEqualTo(new SchedulerVersion(3, 0));
        assertThat(lockLog).startsWith("+config", "+scale", "-scale", "+downscale").endsWith("-downscale", "-config");
        assertThat(heldLocks()).isEmpty();
    }

    @Test
    void aFailedNewRoomIsAnErrorThatRollsBack() {
        UpdateHandle handle = ops.updateImage("pong", Optional.of("pong/pong:broken"));
        rooms().stream().filter(m -> m.templateVersion().equals("v2.0")).forEach(m -> driver.fail("pong", m.id()));

        scheduler.advanceBy(Duration.ofMinutes(10));

        assertThat(handle.outcome()).isCompletedWithValue(OperationStatus.ERROR);
        assertThat(store.release("pong", new SchedulerVersion(2, 0))).map(Release::status).contains(OperationStatus.ERROR);
        assertThat(store.release("pong", new SchedulerVersion(3, 0))).map(Release::status).contains(OperationStatus.DEPLOYED);
        assertThat(rooms()).filteredOn(m -> m.phase() != MemberPhase.FAILED).hasSize(8)
                .allMatch(m -> m.templateVersion().equals("v3.0"));
        assertThat(heldLocks()).isEmpty();
    }

    @Test
    void aCancelledUpdateRollsBack() {
        UpdateHandle handle = ops.updateImage("pong", Optional.of("pong/pong:v2"));
        handle.cancel();

        scheduler.advanceBy(Duration.ofMinutes(10));

        assertThat(handle.outcome()).isCompletedWithValue(OperationStatus.CANCELED);
        assertThat(store.release("pong", new SchedulerVersion(2, 0))).map(Release::status).contains(OperationStatus.CANCELED);
        assertThat(store.get("pong").orElseThrow().config().tree().get("image").asString()).isEqualTo("pong/pong:v1");
        assertThat(rooms()).hasSize(8).allMatch(m -> m.templateVersion().equals("v3.0"));
        assertThat(heldLocks()).isEmpty();
    }

    @Test
    void anOperationStartedTheMomentAnUpdateEndsFindsItsLocksReleased() {
        // A client waiting for the outcome (the fleet server's ?wait=true) acts as soon as it completes: a callback on
        // the outcome is that client at its fastest. The outcome completing while CONFIG was still held answered it
        // LOCKED (a flaky end-to-end test under CPU load).
        UpdateHandle image = ops.updateImage("pong", Optional.of("pong/pong:v2"));
        CompletableFuture<List<String>> heldWhenDone = image.outcome().thenApply(status -> heldLocks());
        CompletableFuture<UpdateHandle> rollback = image.outcome().thenApply(status -> ops.rollback("pong", SchedulerVersion.FIRST));

        scheduler.advanceBy(Duration.ofMinutes(5));

        assertThat(image.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(heldWhenDone).as("locks held when the outcome completed").isCompletedWithValue(List.of());
        assertThat(rollback).as("the follow-up operation was not refused LOCKED").isCompleted();
        assertThat(rollback.join().version()).isEqualTo(new SchedulerVersion(3, 0));
        scheduler.advanceBy(Duration.ofMinutes(5));
        assertThat(rollback.join().outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(heldLocks()).isEmpty();
    }

    @Test
    void anUpdateIsRefusedWhileAnotherOperationHoldsConfig() {
        HeldLock other = locks.newScope().tryAcquire(LockId.of("pong", LockKind.CONFIG)).orElseThrow();

        assertThatThrownBy(() -> ops.updateImage("pong", Optional.of("pong/pong:v2")))
                .isInstanceOfSatisfying(SchedulerOperationException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.LOCKED))
                .hasMessageContaining("CONFIG");
        other.release();
        assertThat(store.releases("pong")).hasSize(1);
    }

    @Test
    void theDocumentedErrorsHaveCodes() {
        assertThat(codeOf(() -> ops.update("chess", V1.replace("name: pong", "name: chess")))).isEqualTo(ErrorCode.SCHEDULER_NOT_FOUND);
        assertThat(codeOf(() -> ops.update("pong", V1.replace("name: pong", "name: chess")))).isEqualTo(ErrorCode.NAME_MISMATCH);
        assertThat(codeOf(() -> ops.updateImage("pong", Optional.empty()))).isEqualTo(ErrorCode.MISSING_FIELD);
        assertThat(codeOf(() -> ops.updateMin("pong", Optional.empty()))).isEqualTo(ErrorCode.MISSING_FIELD);
        assertThat(codeOf(() -> ops.create("game: pong\n"))).isEqualTo(ErrorCode.MISSING_FIELD);
        assertThat(codeOf(() -> ops.create("name: Pong_1\n"))).isEqualTo(ErrorCode.INVALID_CONFIG);
        assertThat(codeOf(() -> ops.create("name: [unclosed\n"))).isEqualTo(ErrorCode.INVALID_CONFIG);
        assertThat(codeOf(() -> ops.create(V1))).isEqualTo(ErrorCode.ALREADY_EXISTS);
        assertThat(codeOf(() -> ops.status("chess"))).isEqualTo(ErrorCode.SCHEDULER_NOT_FOUND);
        assertThat(codeOf(() -> ops.config("pong", Optional.of(new SchedulerVersion(9, 0))))).isEqualTo(ErrorCode.VERSION_NOT_FOUND);
        assertThat(ErrorCode.SCHEDULER_NOT_FOUND.httpStatus()).isEqualTo(404);
        assertThat(ErrorCode.NAME_MISMATCH.httpStatus()).isEqualTo(400);
        assertThat(ErrorCode.MISSING_FIELD.httpStatus()).isEqualTo(422);
    }

    @Test
    void anInvalidConfigIsRefusedWithEveryProblemAndNothingIsSaved() {
        String invalid = V1.replace("image: pong/pong:v1", "image: pong/pong:v2\nports:\n  - {containerPort: 70000, name: p, protocol: TCP}")
                .replace("min: 2", "min: -1");

        assertThatThrownBy(() -> ops.update("pong", invalid))
                .isInstanceOfSatisfying(SchedulerOperationException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_CONFIG);
                    assertThat(e.problems()).extracting(p -> p.path()).contains("ports[0].containerPort", "autoscaling.min");
                });
        assertThat(store.releases("pong")).hasSize(1);
        assertThat(heldLocks()).isEmpty();
    }

    private static ErrorCode codeOf(Runnable call) {
        try {
            call.run();
        } catch (SchedulerOperationException e) {
            return e.code();
        }
        throw new AssertionError("expected a SchedulerOperationException");
    }

    @Test
    void withARoomStatusStoreStatusCountsRoomStatuses() {
        dev.hotspare.memory.InMemoryRoomStatusStore statuses = new dev.hotspare.memory.InMemoryRoomStatusStore();
        SchedulerOperations withRooms = FleetParts.operations(store, locks, driver, scheduler).roomStatuses(statuses).build();
        List<Member> all = rooms();
        for (int i = 0; i < all.size(); i++) {
            statuses.update("pong", all.get(i).id(), dev.hotspare.fleet.RoomState.RoomStatus.READY, scheduler.now());
            if (i < 5) {
                statuses.update("pong", all.get(i).id(), dev.hotspare.fleet.RoomState.RoomStatus.OCCUPIED, scheduler.now());
            }
        }
        assertThat(withRooms.status("pong").rooms()).isEqualTo(new dev.hotspare.fleet.RoomStatusCounts(0, 3, 5, 0));
    }

    @Test
    void aScaleRequestIsRecordedWithTheSchedulerAndChangesNoRoomByItself() {
        CompletableFuture<Integer> up = ops.scaleUp("pong", 2);
        scheduler.advanceBy(Duration.ofSeconds(5));

        assertThat(up).as("no worker runs here: the request waits for the scheduler's watcher").isNotDone();
        assertThat(rooms()).hasSize(8);
        assertThat(store.loadScaleInputs("pong").inputs().pending()).singleElement()
                .satisfies(r -> assertThat(r.amount()).isEqualTo(2));
        assertThat(lockLog).as("recording takes no lock").isEmpty();
    }

    @Test
    void aHundredWaitingRequestsAreTheMostOneSchedulerTakes() {
        for (int i = 0; i < 100; i++) {
            ops.scaleUp("pong", 1);
        }
        assertThat(codeOf(() -> ops.scaleDown("pong", 1))).isEqualTo(ErrorCode.LOCKED);
        assertThat(store.loadScaleInputs("pong").inputs().pending()).hasSize(100);
    }

    @Test
    void deleteRunsUnderTerminationUntilEveryRoomIsGone() {
        CompletableFuture<Boolean> deleted = ops.delete("pong");
        assertThat(heldLocks()).containsExactly("termination");
        assertThat(store.get("pong").orElseThrow().state()).isEqualTo("terminating");

        scheduler.advanceBy(Duration.ofMinutes(1));

        assertThat(deleted).isCompletedWithValue(true);
        assertThat(driver.list("pong")).isEmpty();
        assertThat(store.get("pong")).isEmpty();
        assertThat(lockLog).containsExactly("+termination", "-termination");
    }

    @Test
    void diffFollowsTheSeedsRulesForWhichVersionsAreCompared() {
        ops.updateImage("pong", Optional.of("pong/pong:v2"));
        scheduler.advanceBy(Duration.ofMinutes(10));
        ops.updateMin("pong", Optional.of(4));
        SchedulerVersion v1 = SchedulerVersion.FIRST;
        SchedulerVersion v2 = new SchedulerVersion(2, 0);
        SchedulerVersion v21 = new SchedulerVersion(2, 1);

        VersionDiff latest = ops.diff("pong", Optional.empty(), Optional.empty());
        assertThat(latest.version1()).isEqualTo(v21);
        assertThat(latest.version2()).isEqualTo(v2);
        assertThat(latest.diff().kind()).isEqualTo(ChangeKind.MINOR);
        VersionDiff one = ops.diff("pong", Optional.of(v2), Optional.empty());
        assertThat(one.version2()).isEqualTo(v1);
        assertThat(one.diff().kind()).isEqualTo(ChangeKind.MAJOR);
        VersionDiff both = ops.diff("pong", Optional.of(v21), Optional.of(v1));
        assertThat(both.diff().changes()).extracting(c -> c.path()).containsExactly("autoscaling.min", "image");
        assertThat(codeOf(() -> ops.diff("pong", Optional.of(v1), Optional.empty()))).isEqualTo(ErrorCode.VERSION_NOT_FOUND);
    }

    @Test
    void rollbackReleasesAndConfigByVersion() {
        ops.updateImage("pong", Optional.of("pong/pong:v2"));
        scheduler.advanceBy(Duration.ofMinutes(10));

        UpdateHandle back = ops.rollback("pong", SchedulerVersion.FIRST);
        scheduler.advanceBy(Duration.ofMinutes(10));

        assertThat(back.version()).isEqualTo(new SchedulerVersion(3, 0));
        assertThat(back.outcome()).isCompletedWithValue(OperationStatus.DEPLOYED);
        assertThat(ops.releases("pong")).extracting(Release::version).extracting(SchedulerVersion::toString)
                .containsExactly("v1.0", "v2.0", "v3.0");
        assertThat(ops.config("pong", Optional.of(SchedulerVersion.FIRST))).isEqualTo(V1);
        assertThat(ops.status("pong").roomsByPhase()).containsEntry(MemberPhase.READY, 8);
        assertThat(ops.status("pong").game()).contains("pong");
    }
}
