package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.time.TaskScheduler;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.TreeSet;
import java.util.ArrayList;
import java.util.NoSuchElementException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.time.Instant;
import org.slf4j.LoggerFactory;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The lock protocol over a {@link LockStore}: scheduler locks ({@link LockId}) taken in one global order
 * through {@link LockScope}s, with a wait policy, leak-free acquisition, background renewal at ttl/3 on the
 * {@link TaskScheduler}, lease-lost signalling and fencing tokens for the guarded code.
 *
 * <pre>{@code
 * LockManager locks = LockManager.builder().lockStore(store).scheduler(scheduler).ttl(Duration.ofSeconds(30)).build();
 * Optional<Integer> removed = locks.runLocked(List.of(LockId.of("pong", LockKind.TERMINATION),
 *         LockId.of("pong", LockKind.DOWNSCALE)), held -> scaleDown(held.fence(LockKind.DOWNSCALE)));
 * }</pre>
 *
 * Thread-safe.
 */
public final class LockManager {

    /** TTL used when none is configured. */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

    private final LockStore store;
    private final TaskScheduler scheduler;
    private final Duration ttl;
    private final LockListener kpis;

    private LockManager(Builder builder) {
        this.store = builder.store;
        this.scheduler = builder.scheduler;
        this.ttl = builder.ttl;
        this.kpis = LockListener.guarded(builder.listener);
    }

    /**
     * A builder; give it a {@link Builder#lockStore lock store} and a {@link Builder#scheduler scheduler}.
     *
     * @return a builder whose {@link Builder#build()} checks every setting
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A new scope for one operation's locks.
     */
    public LockScope newScope() {
        return new LockScope(this);
    }

    /**
     * Takes {@code ids} with one attempt each (in the global order), runs {@code body}, and releases them in
     * {@code finally}, errors included. A busy lock means the body is skipped, not queued.
     *
     * @param <T> the t
     * @return the body's result, or empty if a lock was busy
     */
    public <T> Optional<T> runLocked(Collection<LockId> ids, Function<HeldLocks, T> body) {
        Objects.requireNonNull(body, "body");
        try (LockScope scope = newScope()) {
            Optional<HeldLocks> held = scope.tryAcquireAll(ids);
            if (held.isEmpty()) {
                return Optional.empty();
            }
            try (HeldLocks locks = held.get()) {
                return Optional.of(body.apply(locks));
            }
        }
    }

    /**
     * Live leases of {@code scheduler}'s locks, for operators (Maestro's {@code /scheduler/{name}/locks}).
     */
    public List<Lease> list(String scheduler) {
        return store.list(LockId.prefixOf(scheduler));
    }

    /**
     * Removes a stuck lock whoever holds it; the holder sees its lease lost at its next renewal.
     */
    public boolean forceRelease(LockId id) {
        return store.forceRelease(id.key());
    }

    /**
     * The lease TTL.
     */
    public Duration ttl() {
        return ttl;
    }

    LockStore store() {
        return store;
    }

    TaskScheduler scheduler() {
        return scheduler;
    }

    LockListener kpis() {
        return kpis;
    }

    /**
     * The settings this manager was built with.
     */
    public Settings settings() {
        return new Settings(ttl);
    }

    /**
     * A lock manager's settings, read back.
     *
     * @param ttl lease TTL; leases are renewed every third of it
     */
    public record Settings(Duration ttl) {
    }

    /**
     * Builds a {@link LockManager}: the lock store and the scheduler are required (the in-memory lock store lives in
     * {@code dev.hotspare.memory}, which depends on this package); setters only record and {@link #build()} checks
     * every setting, naming each bad one with its value.
     */
    public static final class Builder {
        private LockStore store;
        private TaskScheduler scheduler;
        private Duration ttl = DEFAULT_TTL;
        private LockListener listener = LockListener.NONE;

        private Builder() {
        }

        /**
         * Where leases live (required): {@code new InMemoryLockStore(clock)}, Redis, PostgreSQL or Kubernetes Leases.
         *
         * @param value the store
         * @return this builder
         */
        public Builder lockStore(LockStore value) {
            this.store = value;
            return this;
        }

        /**
         * Renews leases and retries waits (required); its clock times the waits.
         *
         * @param value {@code TaskScheduler.system(..)}, or virtual time in tests
         * @return this builder
         */
        public Builder scheduler(TaskScheduler value) {
            this.scheduler = value;
            return this;
        }

        /**
         * Lease TTL (default {@link #DEFAULT_TTL}); leases are renewed every ttl/3. Longer means a crashed holder
         * blocks others longer; shorter means more renewals and less slack for a slow store.
         *
         * @param value at least 3 ms
         * @return this builder
         */
        public Builder ttl(Duration value) {
            this.ttl = value;
            return this;
        }

        /**
         * Receives lock KPIs (default: none): every acquisition's wait and outcome, and every lease lost. A
         * listener that throws is logged and ignored.
         *
         * @param value the listener
         * @return this builder
         */
        public Builder listener(LockListener value) {
            this.listener = value;
            return this;
        }

        /**
         * The manager.
         *
         * @throws dev.hotspare.validation.ValidationException naming every bad setting and its value
         */
        public LockManager build() {
            java.util.List<dev.hotspare.validation.Problem> problems = new java.util.ArrayList<>();
            if (store == null) {
                problems.add(dev.hotspare.validation.Problem.of("lockStore", dev.hotspare.validation.Problem.MISSING, "is required"));
            }
            if (scheduler == null) {
                problems.add(dev.hotspare.validation.Problem.of("scheduler", dev.hotspare.validation.Problem.MISSING,
                        "is required (TaskScheduler.system(..) or virtual time)"));
            }
            if (ttl == null || ttl.isZero() || ttl.isNegative()) {
                problems.add(dev.hotspare.validation.Problem.of("ttl", ttl == null ? dev.hotspare.validation.Problem.MISSING : ttl,
                        "must be a positive duration"));
            } else if (ttl.toMillis() < 3) {
                problems.add(dev.hotspare.validation.Problem.of("ttl", ttl, "must be at least 3ms so that renewing every third of it is possible"));
            }
            if (listener == null) {
                problems.add(dev.hotspare.validation.Problem.of("listener", dev.hotspare.validation.Problem.MISSING, "must not be null"));
            }
            if (!problems.isEmpty()) {
                throw new dev.hotspare.validation.ValidationException(problems);
            }
            return new LockManager(this);
        }
    }

    /**
     * A lock this process holds: the lease, renewed in the background every ttl/3 until released. Closing it
     * releases the lease (idempotent), so {@code try (HeldLock lock = ...)} releases on every path.
     *
     * <p>The guarded code reads {@link #fence()} to pass with fenced writes, and checks {@link #ensureHeld()}
     * before each side effect: a lease is <em>lost</em> when the store refuses a renewal, or when no renewal
     * succeeded within a TTL of the last good one as measured by this process's clock (started before the
     * store call, so the estimate errs on the side of "lost").
     */
    public static final class HeldLock implements AutoCloseable {

        private static final Logger LOG = LoggerFactory.getLogger(HeldLock.class);

        private final LockId id;
        private final LockStore store;
        private final TaskScheduler scheduler;
        private final Duration ttl;
        private final Runnable onClosed;
        private final List<Runnable> lostListeners = new CopyOnWriteArrayList<>();
        private final TaskScheduler.Cancellable renewal;

        private volatile Lease lease;
        private volatile Instant validUntilLocal;
        private volatile String lostBecause;
        private volatile boolean released;

        HeldLock(LockId id, Lease lease, Instant requestedAtLocal, LockStore store, TaskScheduler scheduler,
                 Duration ttl, Runnable onClosed) {
            this.id = id;
            this.lease = lease;
            this.store = store;
            this.scheduler = scheduler;
            this.ttl = ttl;
            this.onClosed = onClosed;
            this.validUntilLocal = requestedAtLocal.plus(ttl);
            Duration period = ttl.dividedBy(3);
            this.renewal = scheduler.scheduleAtFixedRate(period, period, this::renew);
        }

        /**
         * Which lock this is.
         */
        public LockId id() {
            return id;
        }

        /**
         * The lease as last granted or renewed.
         */
        public Lease lease() {
            return lease;
        }

        /**
         * The fencing token of this acquisition.
         */
        public long fencingToken() {
            return lease.fencingToken();
        }

        /**
         * Key and token, for stores that accept fenced writes.
         */
        public Fence fence() {
            return Fence.of(lease);
        }

        /**
         * Whether the lease can no longer be trusted (see the class comment), or was released.
         */
        public boolean isLost() {
            if (lostBecause != null || released) {
                return true;
            }
            if (!scheduler.clock().instant().isBefore(validUntilLocal)) {
                markLost("no renewal succeeded within the TTL " + ttl);
                return true;
            }
            return false;
        }

        /**
         * Throws if the lease is lost, so guarded code stops before its next side effect.
         *
         * @throws LeaseLostException naming the lock and why
         */
        public void ensureHeld() {
            if (isLost()) {
                throw new LeaseLostException(id, released ? "already released" : lostBecause);
            }
        }

        /**
         * Runs {@code listener} once when the lease is lost (on the renewing thread; keep it short, e.g. cancel the
         * guarded work). If the lease is already lost it runs now. Not run for a normal release.
         */
        public void onLost(Runnable listener) {
            Objects.requireNonNull(listener, "listener");
            lostListeners.add(listener);
            if (lostBecause != null && lostListeners.remove(listener)) {
                runQuietly(listener);
            }
        }

        /**
         * Releases the lease and stops renewing. Idempotent and never throws: if the store is unavailable the
         * lease simply expires by its TTL.
         *
         * @return true if this call released a lease the store still considered held
         */
        public boolean release() {
            synchronized (this) {
                if (released) {
                    return false;
                }
                released = true;
            }
            renewal.cancel();
            onClosed.run();
            try {
                return store.release(lease);
            } catch (StoreUnavailableException e) {
                LOG.warn("could not release {}; it expires by its TTL at {}", id, lease.expiresAt(), e);
                return false;
            }
        }

        /** Same as {@link #release()}. */
        @Override
        public void close() {
            release();
        }

        /**
         * Whether {@link #release()} was called.
         */
        public boolean isReleased() {
            return released;
        }

        private void renew() {
            if (released || lostBecause != null) {
                renewal.cancel();
                return;
            }
            Instant started = scheduler.clock().instant();
            try {
                var renewed = store.renew(lease, ttl);
                if (renewed.isEmpty()) {
                    markLost("the store no longer has it (expired or force-released)");
                } else if (!released) {
                    lease = renewed.get();
                    validUntilLocal = started.plus(ttl);
                }
            } catch (StoreUnavailableException e) {
                if (!scheduler.clock().instant().isBefore(validUntilLocal)) {
                    markLost("store unavailable until the lease's TTL ran out: " + e.getMessage());
                } else {
                    LOG.warn("renewing {} failed; retrying at the next period", id, e);
                }
            } catch (RuntimeException e) {
                LOG.error("renewing {} failed unexpectedly; treating the lease as lost", id, e);
                markLost("renewal failed: " + e);
            }
        }

        private void markLost(String why) {
            synchronized (this) {
                if (lostBecause != null || released) {
                    return;
                }
                lostBecause = why;
            }
            renewal.cancel();
            LOG.warn("lease on {} (token {}) lost: {}", id, lease.fencingToken(), why);
            for (Runnable listener : lostListeners) {
                if (lostListeners.remove(listener)) {
                    runQuietly(listener);
                }
            }
        }

        private void runQuietly(Runnable listener) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                LOG.error("lease-lost listener of {} failed", id, e);
            }
        }

        @Override
        public String toString() {
            return id + "[token " + lease.fencingToken() + (released ? ", released" : lostBecause != null ? ", lost" : "") + "]";
        }
    }

    /**
     * Several locks taken together in the global order by {@link LockScope#tryAcquireAll} or
     * {@link LockScope#acquireAll}. Closing releases them in reverse order.
     *
     * @param locks the held locks, in acquisition order
     */
    public record HeldLocks(List<HeldLock> locks) implements AutoCloseable {

        public HeldLocks {
            locks = List.copyOf(locks);
        }

        /**
         * The held lock of {@code kind} (for the single scheduler these locks belong to).
         */
        public HeldLock get(LockKind kind) {
            return locks.stream().filter(l -> l.id().kind() == kind).findFirst()
                    .orElseThrow(() -> new NoSuchElementException("kind: bad value '" + kind + "': not among the held locks " + locks));
        }

        /**
         * The fence of the held lock of {@code kind}.
         */
        public Fence fence(LockKind kind) {
            return get(kind).fence();
        }

        /** Throws {@link LeaseLostException} if any of the leases is lost. */
        public void ensureHeld() {
            locks.forEach(HeldLock::ensureHeld);
        }

        /**
         * Whether any of the leases is lost.
         */
        public boolean anyLost() {
            return locks.stream().anyMatch(HeldLock::isLost);
        }

        /** Releases every lock, last acquired first. Never throws. */
        @Override
        public void close() {
            for (int i = locks.size() - 1; i >= 0; i--) {
                locks.get(i).release();
            }
        }
    }

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
    public static final class LockScope implements AutoCloseable {

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

    /** How long an acquisition waits for a busy lock. */
    public sealed interface WaitPolicy {

        /**
         * Try once; if the lock is busy, give up at once (what a watcher tick does: skip, do not queue).
         */
        static WaitPolicy tryOnce() {
            return TryOnce.INSTANCE;
        }

        /**
         * Retry with exponential backoff from 50 ms, capped at 1 s, until {@code maxWait} has passed.
         */
        static WaitPolicy waitUpTo(Duration maxWait) {
            return new RetryUntil(maxWait, Duration.ofMillis(50), Duration.ofSeconds(1));
        }

        /** Give up after the first attempt. */
        enum TryOnce implements WaitPolicy {
            INSTANCE
        }

        /**
         * Retry until {@code maxWait} after the first attempt, sleeping {@code initialBackoff}, doubling up to
         * {@code maxBackoff}, between attempts (on the manager's {@link dev.hotspare.time.TaskScheduler}, so
         * no thread is blocked and virtual time works).
         */
        record RetryUntil(Duration maxWait, Duration initialBackoff, Duration maxBackoff) implements WaitPolicy {
            public RetryUntil {
                Objects.requireNonNull(maxWait, "maxWait");
                Objects.requireNonNull(initialBackoff, "initialBackoff");
                Objects.requireNonNull(maxBackoff, "maxBackoff");
                if (maxWait.isNegative()) {
                    throw new IllegalArgumentException("maxWait: bad value '" + maxWait + "': must not be negative");
                }
                if (initialBackoff.isNegative() || initialBackoff.isZero()) {
                    throw new IllegalArgumentException("initialBackoff: bad value '" + initialBackoff + "': must be positive");
                }
                if (maxBackoff.compareTo(initialBackoff) < 0) {
                    throw new IllegalArgumentException("maxBackoff: bad value '" + maxBackoff + "': must be at least initialBackoff " + initialBackoff);
                }
            }

            /**
             * The pause after failed attempt number {@code attempt} (1-based).
             */
            public Duration backoff(int attempt) {
                Duration pause = initialBackoff;
                for (int i = 1; i < attempt && pause.compareTo(maxBackoff) < 0; i++) {
                    pause = pause.multipliedBy(2);
                }
                return pause.compareTo(maxBackoff) > 0 ? maxBackoff : pause;
            }
        }
    }

    /**
     * The guarded operation's lease is gone — renewal failed, the lease expired, or an operator force-released
     * it — so another holder may already act. The operation must stop writing; stores that accept fenced writes
     * reject its writes anyway.
     */
    public static final class LeaseLostException extends IllegalStateException {

        private final LockId lock;

        LeaseLostException(LockId lock, String why) {
            super("lease on " + lock + " lost: " + why);
            this.lock = lock;
        }

        /**
         * The lock whose lease was lost.
         */
        public LockId lock() {
            return lock;
        }
    }

    /**
     * A programming error: a lock was requested out of the global order while the same scope held (or was
     * acquiring) a lock that comes at or after it. Thrown at once, before anything is sent to the store, because
     * out-of-order acquisition is what makes lock protocols deadlock.
     */
    public static final class LockOrderException extends IllegalStateException {

        LockOrderException(LockId requested, LockId held) {
            super("cannot acquire " + requested + " while holding " + held + ": locks are taken in the order "
                    + LockKind.order() + " (then by scheduler name), and never twice");
        }
    }
}
