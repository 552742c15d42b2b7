package dev.hotspare.kpi;

import dev.hotspare.fleet.lock.LockListener;
import dev.hotspare.fleet.runtime.FleetListener;
import dev.hotspare.internal.Listeners;
import dev.hotspare.ownership.runtime.OwnershipMember.OwnershipListener;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.rollout.runtime.RolloutListener;

import java.util.List;

/**
 * All of hotspare's key performance indicators in one listener: it is a {@link PoolListener}, a
 * {@link FleetListener}, a {@link LockListener} and a {@link RolloutListener}, so one object plugs into every
 * runtime component's builder ({@code kpis(listener)}) and into the simulator
 * ({@link dev.hotspare.sim.PoolSimulation#run(dev.hotspare.sim.PoolSimulation.SimulationSettings, List, PoolListener)}), and a
 * simulated and a live pool report the same numbers in the same shape. See {@code docs/kpis.md}; the
 * {@code hotspare-micrometer} module binds it to Micrometer.
 *
 * <p>This package sits on top of the features: it implements their listeners, and nothing below it imports it.
 *
 * <p><b>Threading rule.</b> Methods are called on the runtime's own threads (a reconcile pass, a watcher
 * tick, a lock renewal, a rollout event), possibly concurrently for different pools. They must be quick —
 * count, record, enqueue; never block or do I/O — and should not throw. The runtime survives a listener that
 * does throw: the exception is caught and logged (at WARN the first time, at DEBUG after), and the runtime
 * carries on as if the call had returned.
 *
 * <p>Every method has a no-op default, so an implementation overrides only what it records.
 */
public interface KpiListener extends PoolListener, FleetListener, LockListener, RolloutListener, OwnershipListener {

    /** A listener that ignores everything (the default of every builder). */
    KpiListener NONE = new KpiListener() {
    };

    /**
     * {@code pool} (a pool or a fleet scheduler) performed {@code operation} on {@code count} members or rooms
     * (>= 1). Pools report {@link ScaleOperation#CREATE} / {@link ScaleOperation#DELETE}; fleets report
     * scale-ups, scale-downs and dead-room deletes.
     */
    @Override
    default void scaled(String pool, ScaleOperation operation, int count) {
    }

    /**
     * One listener that forwards every call to each of {@code listeners}, in order. A listener that throws
     * does not keep the others from their call.
     */
    static KpiListener all(KpiListener... listeners) {
        return all(List.of(listeners));
    }

    /**
     * {@link #all(KpiListener...)} over a list.
     */
    static KpiListener all(List<KpiListener> listeners) {
        return Listeners.all(KpiListener.class, listeners, NONE);
    }

    /**
     * {@code listener} with every call wrapped in a catch that logs (WARN once, then DEBUG) instead of throwing.
     * The runtime guards whatever listener it is given with this; idempotent, and {@link #NONE} stays
     * {@link #NONE}.
     *
     * @return {@code listener} with every call wrapped in a catch that logs (WARN once, then DEBUG) instead of
     *         throwing
     */
    static KpiListener guarded(KpiListener listener) {
        return Listeners.guarded(KpiListener.class, listener, NONE);
    }
}
