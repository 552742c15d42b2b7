package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LeaseLostException;
import dev.hotspare.fleet.lock.LockManager.LockOrderException;
import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.fleet.lock.LockManager.WaitPolicy;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static dev.hotspare.fleet.lock.LockId.LockKind.CONFIG;
import static dev.hotspare.fleet.lock.LockId.LockKind.DOWNSCALE;
import static dev.hotspare.fleet.lock.LockId.LockKind.PANIC;
import static dev.hotspare.fleet.lock.LockId.LockKind.SCALE;
import static dev.hotspare.fleet.lock.LockId.LockKind.TERMINATION;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LockManagerTest {

    private static final Duration TTL = Duration.ofSeconds(30);

    private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
    private final InMemoryLockStore memory = new InMemoryLockStore(scheduler.clock());
    private final ToggleableLockStore store = new ToggleableLockStore(memory);
    private final LockManager locks = LockManager.builder().lockStore(store).scheduler(scheduler).ttl(TTL).build();

    private static LockId pong(LockKind kind) {
        return LockId.of("pong", kind);
    }

    @Test
    void locksAreExclusiveNonReentrantAndExposeTheirFencingToken() {
        LockScope first = locks.newScope();
        HeldLock config = first.tryAcquire(pong(CONFIG)).orElseThrow();

        assertThat(locks.newScope().tryAcquire(pong(CONFIG))).isEmpty();
        assertThat(config.fencingToken()).isEqualTo(memory.inspect("scheduler.pong.config").orElseThrow().fencingToken());
        assertThat(config.fence().lockKey()).isEqualTo("scheduler.pong.config");

        assertThat(config.release()).isTrue();
        HeldLock again = locks.newScope().tryAcquire(pong(CONFIG)).orElseThrow();
        assertThat(again.fencingToken()).isGreaterThan(config.fencingToken());
    }

    @Test
    void aHeldLeaseIsRenewedInTheBackgroundForAsLongAsItIsHeld() {
        HeldLock config = locks.newScope().tryAcquire(pong(CONFIG)).orElseThrow();

        scheduler.advanceBy(TTL.multipliedBy(10));

        assertThat(config.isLost()).isFalse();
        assertThat(memory.inspect("scheduler.pong.config")).map(Lease::ownerToken).contains(config.lease().ownerToken());
        config.release();
        scheduler.advanceBy(TTL);
        assertThat(scheduler.pendingCount()).as("renewal stops on release").isZero();
    }

    @Test
    void aForceReleasedLeaseIsReportedLostAtTheNextRenewal() {
        HeldLock config = locks.newScope().tryAcquire(pong(CONFIG)).orElseThrow();
        AtomicInteger lostCalls = new AtomicInteger();
        config.onLost(lostCalls::incrementAndGet);

        assertThat(locks.forceRelease(pong(CONFIG))).isTrue();
        scheduler.advanceBy(TTL.dividedBy(3));

        assertThat(config.isLost()).isTrue();
        assertThat(lostCalls).hasValue(1);
        assertThatThrownBy(config::ensureHeld).isInstanceOf(LeaseLostException.class)
                .hasMessageContaining("CONFIG(pong)").hasMessageContaining("force-released");
    }

    @Test
    void aStoreOutageShorterThanTheTtlKeepsTheLeaseButALongerOneLosesIt() {
        HeldLock config = locks.newScope().tryAcquire(pong(CONFIG)).orElseThrow();
        AtomicBoolean lost = new AtomicBoolean();
        config.onLost(() -> lost.set(true));

        store.down = true;
        scheduler.advanceBy(TTL.dividedBy(3));
        assertThat(config.isLost()).as("one failed renewal is not a lost lease").isFalse();
        store.down = false;
        scheduler.advanceBy(TTL.dividedBy(3));
        assertThat(config.isLost()).isFalse();

        store.down = true;
        scheduler.advanceBy(TTL);
        assertThat(config.isLost()).isTrue();
        assertThat(lost).isTrue();
    }

    @Test
    void outOfOrderAcquisitionIsAProgrammingErrorReportedBeforeTouchingTheStore() {
        LockScope scope = locks.newScope();
        scope.tryAcquire(pong(DOWNSCALE)).orElseThrow();

        assertThatThrownBy(() -> scope.tryAcquire(pong(CONFIG))).isInstanceOf(LockOrderException.class)
                .hasMessageContaining("CONFIG(pong)").hasMessageContaining("DOWNSCALE(pong)")
                .hasMessageContaining("CONFIG < SCALE < TERMINATION < DOWNSCALE < PANIC");
        assertThatThrownBy(() -> scope.tryAcquire(pong(DOWNSCALE))).as("never twice").isInstanceOf(LockOrderException.class);
        assertThat(memory.inspect("scheduler.pong.config")).isEmpty();
        assertThat(scope.tryAcquire(pong(PANIC))).isPresent();
    }

    @Test
    void theUpdateFlowTakesConfigAndScaleThenReleasesScaleAndTakesDownscale() {
        try (LockScope update = locks.newScope()) {
            HeldLock config = update.tryAcquire(pong(CONFIG)).orElseThrow();
            HeldLock scale = update.tryAcquire(pong(SCALE)).orElseThrow();
            scale.release();
            HeldLock downscale = update.tryAcquire(pong(DOWNSCALE)).orElseThrow();
            assertThat(update.held()).containsExactly(config, downscale);
            assertThatThrownBy(() -> update.tryAcquire(pong(SCALE))).isInstanceOf(LockOrderException.class);
        }
        assertThat(memory.list("")).as("closing the scope releases everything").isEmpty();
    }

    @Test
    void waitingRetriesUntilTheLockIsFreed() {
        HeldLock holder = locks.newScope().tryAcquire(pong(DOWNSCALE)).orElseThrow();

        CompletableFuture<Optional<HeldLock>> waiting = locks.newScope().acquire(pong(DOWNSCALE), WaitPolicy.waitUpTo(Duration.ofSeconds(10)));
        scheduler.advanceBy(Duration.ofSeconds(2));
        assertThat(waiting).isNotDone();
        holder.release();
        scheduler.advanceBy(Duration.ofSeconds(2));

        assertThat(waiting).isCompleted();
        assertThat(waiting.join()).isPresent();
        assertThat(waiting.join().get().fencingToken()).isGreaterThan(holder.fencingToken());
    }

    @Test
    void waitingGivesUpAtTheDeadlineHoldingNothing() {
        locks.newScope().tryAcquire(pong(DOWNSCALE)).orElseThrow();
        LockScope scope = locks.newScope();

        CompletableFuture<Optional<HeldLock>> waiting = scope.acquire(pong(DOWNSCALE), WaitPolicy.waitUpTo(Duration.ofSeconds(10)));
        scheduler.advanceBy(Duration.ofSeconds(11));

        assertThat(waiting.join()).isEmpty();
        assertThat(scope.held()).isEmpty();
        assertThat(scope.tryAcquire(pong(CONFIG))).as("the claim on DOWNSCALE is gone with the give-up").isPresent();
    }

    @Test
    void aCallerThatGivesUpWhileTheStoreGrantsDoesNotLeakTheLease() {
        HeldLock holder = locks.newScope().tryAcquire(pong(DOWNSCALE)).orElseThrow();
        AtomicReference<CompletableFuture<Optional<HeldLock>>> waiting = new AtomicReference<>();
        waiting.set(locks.newScope().acquire(pong(DOWNSCALE), WaitPolicy.waitUpTo(Duration.ofSeconds(10))));
        holder.release();
        // The caller times out exactly while the store is granting the lease to its retry.
        store.beforeAcquire = () -> waiting.get().cancel(false);

        scheduler.advanceBy(Duration.ofSeconds(5));

        assertThat(waiting.get()).isCancelled();
        assertThat(memory.inspect("scheduler.pong.downscale")).isEmpty();
    }

    @Test
    void aCancelledWaitStopsRetrying() {
        HeldLock holder = locks.newScope().tryAcquire(pong(DOWNSCALE)).orElseThrow();
        CompletableFuture<Optional<HeldLock>> waiting = locks.newScope().acquire(pong(DOWNSCALE), WaitPolicy.waitUpTo(Duration.ofSeconds(10)));
        waiting.cancel(false);
        holder.release();

        scheduler.advanceBy(Duration.ofSeconds(11));

        assertThat(memory.inspect("scheduler.pong.downscale")).isEmpty();
    }

    @Test
    void anInterruptedWaiterAbandonsTheAcquisition() throws Exception {
        locks.newScope().tryAcquire(pong(DOWNSCALE)).orElseThrow();
        LockScope scope = locks.newScope();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            try {
                scope.acquireBlocking(pong(DOWNSCALE), WaitPolicy.waitUpTo(Duration.ofMinutes(1)));
            } catch (Throwable e) {
                thrown.set(e);
            } finally {
                done.countDown();
            }
        });
        waiter.start();
        waiter.interrupt();
        done.await();

        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        locks.forceRelease(pong(DOWNSCALE));
        scheduler.advanceBy(Duration.ofMinutes(2));
        assertThat(memory.inspect("scheduler.pong.downscale")).as("no retry acquires after the interrupt").isEmpty();
    }

    @Test
    void runLockedReleasesInFinallyOnErrorsAndSkipsWhenBusy() {
        List<LockId> autoscale = List.of(pong(TERMINATION), pong(DOWNSCALE));
        assertThatThrownBy(() -> locks.runLocked(autoscale, held -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(memory.list("")).isEmpty();

        HeldLock other = locks.newScope().tryAcquire(pong(DOWNSCALE)).orElseThrow();
        AtomicBoolean ran = new AtomicBoolean();
        assertThat(locks.runLocked(autoscale, held -> ran.getAndSet(true))).isEmpty();
        assertThat(ran).isFalse();
        assertThat(memory.inspect("scheduler.pong.termination")).as("all or nothing").isEmpty();

        other.release();
        assertThat(locks.runLocked(autoscale, held -> held.fence(DOWNSCALE).token())).isPresent();
    }

    @Test
    void anUnavailableStoreFailsATryOnceButARetryingWaitRidesItOut() {
        store.down = true;
        assertThatThrownBy(() -> locks.newScope().tryAcquire(pong(CONFIG))).isInstanceOf(StoreUnavailableException.class);

        CompletableFuture<Optional<HeldLock>> waiting = locks.newScope().acquire(pong(CONFIG), WaitPolicy.waitUpTo(Duration.ofSeconds(10)));
        scheduler.advanceBy(Duration.ofSeconds(1));
        store.down = false;
        scheduler.advanceBy(Duration.ofSeconds(2));

        assertThat(waiting.join()).isPresent();
    }

    @Test
    void schedulerNamesAreValidatedBeforeTheyBecomeKeys() {
        assertThatThrownBy(() -> LockId.of("Pong:1", CONFIG)).hasMessageContaining("scheduler").hasMessageContaining("Pong:1");
        assertThat(LockId.of("pong", CONFIG).key()).isEqualTo("scheduler.pong.config");
        assertThat(locks.list("pong")).isEmpty();
    }
}
