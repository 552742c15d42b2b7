package dev.hotspare.fleet.lock;

import java.util.List;
import java.util.NoSuchElementException;

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
