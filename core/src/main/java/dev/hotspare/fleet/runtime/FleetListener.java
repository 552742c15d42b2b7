package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockListener;
import dev.hotspare.internal.Listeners;
import dev.hotspare.ownership.runtime.OwnershipMember.OwnershipListener;
import dev.hotspare.pool.PoolPlan.ScaleOperation;

import java.util.List;

/**
 * Observes a fleet: rooms per status after every watcher tick, and every change in the number of rooms (scale-ups
 * and scale-downs whatever asked for them — the autoscaler, a panic scale, a manual scale — and dead-room
 * removals). {@code dev.hotspare.kpi.KpiListener} and the {@code hotspare-micrometer} module implement it.
 *
 * <p>Called on the runtime's threads: implementations must be quick and should not throw; the runtime guards
 * whatever it is given (an exception is logged, WARN once then DEBUG, and ignored). Every method has a no-op
 * default.
 *
 * <p>It is also the fleet's {@link LockListener} (lock waits and lost leases of the fleet's lock manager) and its
 * {@link OwnershipListener} (schedulers this instance takes, hands over or loses), so a fleet has one
 * {@code listener(..)} setting.
 */
public interface FleetListener extends LockListener, OwnershipListener {

    /** A listener that ignores everything. */
    FleetListener NONE = new FleetListener() {
    };

    /**
     * After each tick of a scheduler's watcher: how many rooms of {@code scheduler} are in each room status.
     * Replaces the previous snapshot.
     */
    default void roomsPerStatus(String scheduler, RoomStatusCounts counts) {
    }

    /**
     * {@code scheduler} performed {@code operation} on {@code count} rooms (>= 1).
     *
     * @param count how many
     */
    default void scaled(String scheduler, ScaleOperation operation, int count) {
    }

    /**
     * What the fleet calls when {@code scheduler} performed {@code operation} on {@code count} rooms (>= 1). Apart
     * from {@link #scaled}, which a {@code KpiListener} shares with pools, so that an implementation can tell a
     * scheduler's rooms from a pool's members (the meters label a scheduler {@code scheduler=}, not {@code pool=}).
     * By default it calls {@link #scaled}, so listeners written before it see every scale as before.
     *
     * @param operation scale-up, scale-down, or delete (dead rooms removed)
     * @param count     how many rooms
     */
    default void roomsScaled(String scheduler, ScaleOperation operation, int count) {
        scaled(scheduler, operation, count);
    }

    /**
     * {@code scheduler} is gone from the store and this worker stopped watching it: whatever was kept per scheduler
     * (meters, say) can go, so deleted schedulers do not pile up.
     *
     * @param scheduler the deleted scheduler's name
     */
    default void schedulerRemoved(String scheduler) {
    }

    /**
     * {@code listener} with every call guarded: an exception is logged and ignored. Idempotent.
     */
    static FleetListener guarded(FleetListener listener) {
        return Listeners.guarded(FleetListener.class, listener, NONE);
    }

    /**
     * One listener calling each of {@code listeners} in order, each guarded.
     */
    static FleetListener all(FleetListener... listeners) {
        return Listeners.all(FleetListener.class, List.of(listeners), NONE);
    }
}
