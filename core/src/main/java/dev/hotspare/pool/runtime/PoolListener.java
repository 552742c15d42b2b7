package dev.hotspare.pool.runtime;

import dev.hotspare.internal.Listeners;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Observes a {@link PoolController}: every applied plan and assignment, and the pool's KPIs (how claims were
 * served and how long they waited, members per state, creates and deletes). The {@code hotspare-micrometer}
 * module and {@code dev.hotspare.kpi.KpiListener} implement it from above; the simulator reports through it
 * too, so a simulated and a live pool report the same numbers.
 *
 * <p>Called on the controller's thread: implementations must be quick (count, record, enqueue; never block or do
 * I/O) and should not throw. The controller guards whatever listener it is given: an exception is logged (WARN
 * once, then DEBUG) and the pass carries on. Every method has a no-op default.
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

    /**
     * A claim of {@code pool} was given a member, {@code wait} after it was made.
     *
     * @param service how: from a running member, a hibernated one, or one installed for it
     * @param wait    from the claim's creation to its assignment (zero for a claim served on its own pass)
     */
    default void claimServed(String pool, ClaimService service, Duration wait) {
    }

    /**
     * The wait of a claim of {@code pool} just served, split by stage: how long it queued with no member on its
     * way, waited for a resume, and waited for an install. Called right after {@link #claimServed} for the same
     * claim; the parts add up to its wait.
     *
     * @param service how it was served
     * @param stages  its wait by stage
     */
    default void claimStages(String pool, ClaimService service, ClaimStages stages) {
    }

    /**
     * A claim of {@code pool} ended its wait with {@code outcome}: served (hot, warm or cold, judged as
     * {@link #claimServed}), withdrawn by its claimer, or expired at its deadline. Called once per claim, by the
     * controller that saw it end.
     *
     * @param claim   the claim's name
     * @param outcome how its wait ended
     */
    default void claimEnded(String pool, String claim, ClaimOutcome outcome) {
    }

    /**
     * After each reconcile pass of {@code pool}: how many members are in each state, as observed at the start
     * of the pass. Every state is in the map (zero when empty). Replaces the previous snapshot.
     */
    default void membersPerState(String pool, Map<MemberState, Integer> counts) {
    }

    /** {@code pool} (a pool or a fleet scheduler) performed {@code operation} on {@code count} members (>= 1). */
    default void scaled(String pool, ScaleOperation operation, int count) {
    }

    /**
     * The auto-sizer of {@code pool} decided (once per sizing interval, for a spec with {@code autoSizing}).
     *
     * @param decision what it decided, with its reasons
     * @param applied  whether the pool applies it ({@code false}: shadow mode, the pool keeps its spec's count)
     */
    default void sizingDecided(String pool, SizingDecision decision, boolean applied) {
    }

    /** {@code listener} with every call guarded: an exception is logged and ignored. Idempotent. */
    static PoolListener guarded(PoolListener listener) {
        return Listeners.guarded(PoolListener.class, listener, NONE);
    }

    /** One listener calling each of {@code listeners} in order, each guarded. */
    static PoolListener all(PoolListener... listeners) {
        return Listeners.all(PoolListener.class, List.of(listeners), NONE);
    }
}
