package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A lock this process holds: the lease, renewed in the background every ttl/3 until released. Closing it
 * releases the lease (idempotent), so {@code try (HeldLock lock = ...)} releases on every path.
 *
 * <p>The guarded code reads {@link #fence()} to pass with fenced writes, and checks {@link #ensureHeld()}
 * before each side effect: a lease is <em>lost</em> when the store refuses a renewal, or when no renewal
 * succeeded within a TTL of the last good one as measured by this process's clock (started before the
 * store call, so the estimate errs on the side of "lost").
 */
public final class HeldLock implements AutoCloseable {

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
