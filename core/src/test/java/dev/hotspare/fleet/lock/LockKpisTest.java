package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.WaitPolicy;
import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.kpi.RecordingKpis.LeaseLost;
import dev.hotspare.kpi.RecordingKpis.LockWait;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Lock waits and lease losses reported by the {@link LockManager}, on virtual time. */
class LockKpisTest {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final LockId DOWNSCALE = LockId.of("pong", LockKind.DOWNSCALE);

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final InMemoryLockStore store = new InMemoryLockStore(time.clock());
    private final RecordingKpis kpis = new RecordingKpis();
    private final LockManager locks = LockManager.builder().lockStore(store).scheduler(time).ttl(TTL).listener(kpis).build();
    /** Another process: no KPIs, so only {@link #locks}' acquisitions are recorded. */
    private final LockManager other = LockManager.builder().lockStore(store).scheduler(time).ttl(TTL).build();

    @Test
    void aFreeLockIsAcquiredWithNoWait() {
        locks.newScope().tryAcquire(DOWNSCALE).orElseThrow();

        assertThat(kpis.calls()).containsExactly(new LockWait(DOWNSCALE, LockOutcome.ACQUIRED, Duration.ZERO));
    }

    @Test
    void aBusyLockIsReportedWithTheTimeItTookToGetIt() {
        HeldLock held = other.newScope().tryAcquire(DOWNSCALE).orElseThrow();
        CompletableFuture<Optional<HeldLock>> waiting = locks.newScope().acquire(DOWNSCALE, WaitPolicy.waitUpTo(Duration.ofSeconds(10)));
        time.advanceBy(Duration.ofSeconds(3));
        held.release();
        time.advanceBy(Duration.ofSeconds(2));

        assertThat(waiting.join()).isPresent();
        // Retries at 50, 150, 350, 750, 1550, 2550 ms (backoff doubling from 50 ms, capped at 1 s), then 3550 ms.
        assertThat(kpis.calls()).containsExactly(new LockWait(DOWNSCALE, LockOutcome.ACQUIRED, Duration.ofMillis(3550)));
    }

    @Test
    void aWaitThatGivesUpIsReportedAsTimedOutAfterTheWholeWait() {
        other.newScope().tryAcquire(DOWNSCALE).orElseThrow();
        CompletableFuture<Optional<HeldLock>> waiting = locks.newScope().acquire(DOWNSCALE, WaitPolicy.waitUpTo(Duration.ofSeconds(2)));
        time.advanceBy(Duration.ofSeconds(5));

        assertThat(waiting.join()).isEmpty();
        assertThat(kpis.calls()).containsExactly(new LockWait(DOWNSCALE, LockOutcome.TIMED_OUT, Duration.ofSeconds(2)));
    }

    @Test
    void aBusyTryOnceIsTimedOutAtOnce() {
        other.newScope().tryAcquire(DOWNSCALE).orElseThrow();

        assertThat(locks.runLocked(java.util.List.of(DOWNSCALE), held -> "ran")).isEmpty();

        assertThat(kpis.calls()).containsExactly(new LockWait(DOWNSCALE, LockOutcome.TIMED_OUT, Duration.ZERO));
    }

    @Test
    void aForceReleasedLeaseIsReportedLostOnceAndANormalReleaseIsNot() {
        HeldLock lost = locks.newScope().tryAcquire(DOWNSCALE).orElseThrow();
        HeldLock kept = locks.newScope().tryAcquire(LockId.of("pang", LockKind.DOWNSCALE)).orElseThrow();
        kpis.clear();

        locks.forceRelease(DOWNSCALE);
        time.advanceBy(TTL);
        kept.release();
        time.advanceBy(TTL);

        assertThat(lost.isLost()).isTrue();
        assertThat(kpis.calls()).containsExactly(new LeaseLost(DOWNSCALE));
    }
}
