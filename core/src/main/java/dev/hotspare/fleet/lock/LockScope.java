package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.spi.StoreUnavailableException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The locks of one operation, possibly spanning threads (an update keeps CONFIG while its rolling replace runs
 * asynchronously). A scope enforces the global order: a lock may be requested only if it comes after every
 * lock the scope holds or is acquiring; anything else throws {@link LockOrderException} at once. Locks
 * released in the middle (SCALE during an update) no longer count.
 *
 * <p>Acquisition is leak-free: if the caller cancels the returned future, a deadline passes, or the waiting
 * thread is interrupted after the store granted the lease, the lease is released, never left to expire.
 *
 * <p>Thread-safe. Closing the scope releases whatever it still holds.
 */
public final class LockScope implements AutoCloseable {

    private final LockManager manager;
    private final TreeSet<LockId> claimed = new TreeSet<>();
    private final List<HeldLock> held = new ArrayList<>();

    LockScope(LockManager manager) {
        this.manager = manager;
    }

    /**
     * Acquires {@code id} under {@code policy}. The first attempt runs on the calling thread; retries run on
     * the manager's scheduler.
     *
     * @return a future of the held lock, or of empty if the policy gave up because the lock stayed busy; it
     *         fails with {@link StoreUnavailableException} if the store could not answer (on the last attempt).
     *         Cancelling it abandons the acquisition and releases a lease granted meanwhile.
     * @throws LockOrderException if {@code id} does not come after every lock this scope holds or is acquiring
     */
    public CompletableFuture<Optional<HeldLock>> acquire(LockId id, WaitPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        claim(id);
        CompletableFuture<Optional<HeldLock>> result = new CompletableFuture<>();
        // Whatever ends the future without a lock (give up, cancel, failure) frees the claim.
        result.whenComplete((lock, error) -> {
            if (error != null || lock.isEmpty()) {
                unclaim(id);
            }
        });
        Instant requestedAt = manager.scheduler().clock().instant();
        if (manager.kpis() != LockListener.NONE) {
            result.whenComplete((lock, error) -> {
                if (error == null) {
                    Duration wait = Duration.between(requestedAt, manager.scheduler().clock().instant());
                    manager.kpis().lockWaited(id, lock.isPresent() ? LockOutcome.ACQUIRED : LockOutcome.TIMED_OUT,
                            wait.isNegative() ? Duration.ZERO : wait);
                }
            });
        }
        Instant deadline = policy instanceof WaitPolicy.RetryUntil retry
                ? requestedAt.plus(retry.maxWait()) : Instant.MIN;
        attempt(id, policy, deadline, 1, result);
        return result;
    }

    /**
     * One attempt, on the caller's thread. Empty if busy.
     */
    public Optional<HeldLock> tryAcquire(LockId id) {
        return join(acquire(id, WaitPolicy.tryOnce()));
    }

    /**
     * Waits (blocking this thread) for {@link #acquire}. If the thread is interrupted, the acquisition is
     * abandoned and a lease granted meanwhile released before {@link InterruptedException} is thrown.
     */
    public Optional<HeldLock> acquireBlocking(LockId id, WaitPolicy policy) throws InterruptedException {
        CompletableFuture<Optional<HeldLock>> future = acquire(id, policy);
        try {
            return future.get();
        } catch (InterruptedException e) {
            if (!future.cancel(false)) {
                // Completed between the interrupt and the cancel: give back what was granted.
                future.getNow(Optional.empty()).ifPresent(HeldLock::release);
            }
            throw e;
        } catch (ExecutionException e) {
            throw unwrap(e.getCause());
        }
    }

    /**
     * Acquires all of {@code ids} in the global order, one attempt each; all or nothing.
     *
     * @return the held locks, or empty (with nothing held) if any was busy
     */
    public Optional<HeldLocks> tryAcquireAll(Collection<LockId> ids) {
        return join(acquireAll(ids, WaitPolicy.tryOnce()));
    }

    /**
     * Acquires all of {@code ids} in the global order, each under {@code policy}; all or nothing: if one
     * cannot be had, those already taken are released.
     *
     * @return acquires all of {@code ids} in the global order, each under {@code policy}; all or nothing: if one
     *         cannot be had, those already taken are released
     */
    public CompletableFuture<Optional<HeldLocks>> acquireAll(Collection<LockId> ids, WaitPolicy policy) {
        List<LockId> ordered = new ArrayList<>(new TreeSet<>(ids));
        if (ordered.size() != ids.size()) {
            throw new IllegalArgumentException("ids: bad value '" + ids + "': a lock appears twice");
        }
        return acquireNext(ordered, 0, policy, new ArrayList<>());
    }

    private CompletableFuture<Optional<HeldLocks>> acquireNext(List<LockId> ids, int index, WaitPolicy policy,
                                                               List<HeldLock> taken) {
        if (index == ids.size()) {
            return CompletableFuture.completedFuture(Optional.of(new HeldLocks(taken)));
        }
        CompletableFuture<Optional<HeldLock>> next;
        try {
            next = acquire(ids.get(index), policy);
        } catch (RuntimeException e) {
            releaseAll(taken);
            throw e;
        }
        return next.handle((lock, error) -> {
            if (error != null || lock.isEmpty()) {
                releaseAll(taken);
                return error != null ? CompletableFuture.<Optional<HeldLocks>>failedFuture(error)
                        : CompletableFuture.completedFuture(Optional.<HeldLocks>empty());
            }
            taken.add(lock.get());
            return acquireNext(ids, index + 1, policy, taken);
        }).thenCompose(f -> f);
    }

    /**
     * Locks this scope holds now, in acquisition order.
     */
    public synchronized List<HeldLock> held() {
        return List.copyOf(held);
    }

    /** Releases everything still held, last acquired first. Never throws. */
    @Override
    public void close() {
        List<HeldLock> toRelease;
        synchronized (this) {
            toRelease = new ArrayList<>(held);
        }
        releaseAll(toRelease);
    }

    private void attempt(LockId id, WaitPolicy policy, Instant deadline, int attemptNumber,
                         CompletableFuture<Optional<HeldLock>> result) {
        if (result.isDone()) {
            return;
        }
        Instant requestedAt = manager.scheduler().clock().instant();
        Optional<Lease> lease;
        try {
            lease = manager.store().tryAcquire(id.key(), manager.ttl());
        } catch (StoreUnavailableException e) {
            if (!retryLater(id, policy, deadline, attemptNumber, result)) {
                result.completeExceptionally(e);
            }
            return;
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        if (lease.isPresent()) {
            HeldLock lock = new HeldLock(id, lease.get(), requestedAt, manager.store(), manager.scheduler(),
                    manager.ttl(), () -> forget(id));
            synchronized (this) {
                held.add(lock);
            }
            if (manager.kpis() != LockListener.NONE) {
                lock.onLost(() -> manager.kpis().leaseLost(id));
            }
            if (!result.complete(Optional.of(lock))) {
                // The caller gave up (cancelled, timed out) while the store was granting: do not leak it.
                lock.release();
            }
            return;
        }
        if (!retryLater(id, policy, deadline, attemptNumber, result)) {
            result.complete(Optional.empty());
        }
    }

    private boolean retryLater(LockId id, WaitPolicy policy, Instant deadline, int attemptNumber,
                               CompletableFuture<Optional<HeldLock>> result) {
        if (!(policy instanceof WaitPolicy.RetryUntil retry)) {
            return false;
        }
        Instant now = manager.scheduler().clock().instant();
        if (!now.isBefore(deadline)) {
            return false;
        }
        Duration pause = retry.backoff(attemptNumber);
        Duration left = Duration.between(now, deadline);
        // The last retry lands exactly on the deadline, so a lock freed just before it is still taken.
        manager.scheduler().schedule(pause.compareTo(left) > 0 ? left : pause,
                () -> attempt(id, policy, deadline, attemptNumber + 1, result));
        return true;
    }

    private synchronized void claim(LockId id) {
        Objects.requireNonNull(id, "id");
        if (!claimed.isEmpty() && claimed.last().compareTo(id) >= 0) {
            throw new LockOrderException(id, claimed.last());
        }
        claimed.add(id);
    }

    private synchronized void unclaim(LockId id) {
        claimed.remove(id);
    }

    private synchronized void forget(LockId id) {
        held.removeIf(l -> l.id().equals(id));
        claimed.remove(id);
    }

    private static void releaseAll(List<HeldLock> locks) {
        for (int i = locks.size() - 1; i >= 0; i--) {
            locks.get(i).release();
        }
    }

    private static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw unwrap(e.getCause());
        } catch (CancellationException e) {
            throw e;
        }
    }

    private static RuntimeException unwrap(Throwable cause) {
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(cause);
    }
}
