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
}
