package dev.hotspare.kpi;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockOutcome;
import dev.hotspare.pool.ClaimService;
import dev.hotspare.pool.MemberState;
import dev.hotspare.pool.ScaleOperation;
import dev.hotspare.rollout.RolloutProgress;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Receives the key performance indicators of the runtime: how long claims wait and how they are served, how
 * many members are in each state, scale operations, lock waits and lease losses, rollout progress. The same
 * listener plugs into every runtime component through its builder ({@code kpis(listener)}) and into the
 * simulator ({@link dev.hotspare.sim.PoolSimulation#run(dev.hotspare.sim.SimulationSettings, List, KpiListener)}),
 * so a simulated and a live pool report the same numbers in the same shape. See {@code docs/kpis.md}; the
 * {@code hotspare-micrometer} module binds it to Micrometer.
 *
 * <p><b>Threading rule.</b> Methods are called on the runtime's own threads (a reconcile pass, a watcher
 * tick, a lock renewal, a rollout event), possibly concurrently for different pools. They must be quick —
 * count, record, enqueue; never block or do I/O — and should not throw. The runtime survives a listener that
 * does throw: the exception is caught and logged (at WARN the first time, at DEBUG after), and the runtime
 * carries on as if the call had returned.
 *
 * <p>Every method has a no-op default, so an implementation overrides only what it records.
 */
public interface KpiListener {

    /** A listener that ignores everything (the default of every builder). */
    KpiListener NONE = new KpiListener() {
    };

    /**
     * A claim of {@code pool} was given a member, {@code wait} after it was made.
     *
     * @param service how: from a running member, a hibernated one, or one installed for it
     * @param wait    from the claim's creation to its assignment (zero for a claim served on its own pass)
     */
    default void claimServed(String pool, ClaimService service, Duration wait) {
    }

    /**
     * After each reconcile pass of {@code pool}: how many members are in each state, as observed at the start
     * of the pass. Every state is in the map (zero when empty). Replaces the previous snapshot.
     */
    default void membersPerState(String pool, Map<MemberState, Integer> counts) {
    }

    /**
     * After each tick of a fleet scheduler's watcher: how many rooms of {@code scheduler} are in each room
     * status. Replaces the previous snapshot.
     */
    default void roomsPerStatus(String scheduler, RoomStatusCounts counts) {
    }

    /** {@code pool} (a pool or a fleet scheduler) performed {@code operation} on {@code count} members (>= 1). */
    default void scaled(String pool, ScaleOperation operation, int count) {
    }

    /**
     * An acquisition of {@code lock} ended after {@code wait} (from the request to the grant or the give-up;
     * cancelled acquisitions and store failures are not reported).
     */
    default void lockWaited(LockId lock, LockOutcome outcome, Duration wait) {
    }

    /** A lease this process held on {@code lock} was lost (a renewal was refused or ran past the TTL). */
    default void leaseLost(LockId lock) {
    }

    /** Rollout {@code rollout} moved: a new phase, or more targets done. Reported once at start, then on change. */
    default void rolloutProgress(String rollout, RolloutProgress progress) {
    }

    /**
     * One listener that forwards every call to each of {@code listeners}, in order. A listener that throws
     * does not keep the others from their call.
     */
    static KpiListener all(KpiListener... listeners) {
        return all(List.of(listeners));
    }

    /** {@link #all(KpiListener...)} over a list. */
    static KpiListener all(List<KpiListener> listeners) {
        List<KpiListener> real = listeners.stream().filter(l -> l != NONE).map(KpiListener::guarded).toList();
        return switch (real.size()) {
            case 0 -> NONE;
            case 1 -> real.get(0);
            default -> new CompositeKpiListener(real);
        };
    }

    /**
     * {@code listener} with every call wrapped in a catch that logs (WARN once, then DEBUG) instead of throwing.
     * The runtime guards whatever listener it is given with this; idempotent, and {@link #NONE} stays
     * {@link #NONE}.
     */
    static KpiListener guarded(KpiListener listener) {
        java.util.Objects.requireNonNull(listener, "listener");
        if (listener == NONE || listener instanceof GuardedKpiListener || listener instanceof CompositeKpiListener) {
            return listener;
        }
        return new GuardedKpiListener(listener);
    }
}
