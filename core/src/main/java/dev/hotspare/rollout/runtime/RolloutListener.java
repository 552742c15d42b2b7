package dev.hotspare.rollout.runtime;

import dev.hotspare.internal.Listeners;
import dev.hotspare.rollout.RolloutState.RolloutProgress;

/**
 * Observes a {@link RolloutController}: the progress of each rollout. {@code dev.hotspare.kpi.KpiListener} and
 * the {@code hotspare-micrometer} module implement it.
 *
 * <p>Implementations must be quick and should not throw; the controller guards whatever it is given (an exception
 * is logged, WARN once then DEBUG, and ignored). Every method has a no-op default.
 */
public interface RolloutListener {

    /** A listener that ignores everything. */
    RolloutListener NONE = new RolloutListener() {
    };

    /**
     * Rollout {@code rollout} moved: a new phase, or more targets done. Reported once at start, then on change.
     *
     * @param rollout  the rollout's name
     * @param progress its phase and targets done / total
     */
    default void rolloutProgress(String rollout, RolloutProgress progress) {
    }

    /**
     * {@code listener} with every call guarded: an exception is logged and ignored. Idempotent.
     */
    static RolloutListener guarded(RolloutListener listener) {
        return Listeners.guarded(RolloutListener.class, listener, NONE);
    }
}
