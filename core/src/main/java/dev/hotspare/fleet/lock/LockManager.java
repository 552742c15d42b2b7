package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.time.TaskScheduler;

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
 * LockManager locks = LockManager.builder(store, scheduler).ttl(Duration.ofSeconds(30)).build();
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
        this.kpis = LockListener.guarded(builder.kpis);
    }

    /**
     * A builder over {@code store}, renewing and retrying on {@code scheduler}.
     */
    public static Builder builder(LockStore store, TaskScheduler scheduler) {
        return new Builder(store, scheduler);
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

    /** Builds a {@link LockManager}. */
    public static final class Builder {
        private final LockStore store;
        private final TaskScheduler scheduler;
        private Duration ttl = DEFAULT_TTL;
        private LockListener kpis = LockListener.NONE;

        private Builder(LockStore store, TaskScheduler scheduler) {
            this.store = Objects.requireNonNull(store, "store");
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        }

        /**
         * Lease TTL; leases are renewed every ttl/3. Longer means a crashed holder blocks others longer;
         * shorter means more renewals and less slack for a slow store.
         */
        public Builder ttl(Duration ttl) {
            LockStore.requirePositive(ttl);
            if (ttl.toMillis() < 3) {
                throw new IllegalArgumentException("ttl: bad value '" + ttl + "': must be at least 3ms so ttl/3 renewal is positive");
            }
            this.ttl = ttl;
            return this;
        }

        /**
         * Receives lock KPIs (default: none): every acquisition's wait and outcome, and every lease lost. A
         * listener that throws is logged and ignored.
         */
        public Builder kpis(LockListener kpis) {
            this.kpis = java.util.Objects.requireNonNull(kpis, "kpis");
            return this;
        }

        public LockManager build() {
            return new LockManager(this);
        }
    }
}
