package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;

import java.time.Instant;

/**
 * Observes a {@link PoolController}: every applied plan and every assignment. Called on the controller's
 * thread, so implementations must be quick (count, record, enqueue).
 */
public interface PoolListener {

    /** A listener that ignores everything. */
    PoolListener NONE = new PoolListener() {
    };

    /** A pass applied {@code plan} at {@code now}. */
    default void onPlanApplied(String pool, PoolPlan plan, Instant now) {
    }

    /** A claim was given {@code memberBefore} (the member as observed just before the assignment). */
    default void onClaimAssigned(String pool, PoolPlan.Assignment assignment, Member memberBefore) {
    }
}
