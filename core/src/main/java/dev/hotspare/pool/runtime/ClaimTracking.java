package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Claim.WaitStage;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pool controller's claim handles (issue 24 item 4): the handle of each claim made through this controller, how
 * long waiting claims have waited by stage, and what served claims waited; completes handles a pass or another
 * controller served.
 */
final class ClaimTracking {

    private final PoolContext ctx;
    private final MemberDriver driver;
    private final ClaimStore claims;
    private final PoolListener listener;
    private final PoolSizing sizing;

    final Map<String, ClaimHandle> handles = new ConcurrentHashMap<>();
    /** Waiting claims: the stage of their current reason, since when, and what they waited before (pass lock). */
    final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    /** Served claims' whole wait by stage, kept while they are live (for explain). */
    final Map<String, ClaimStages> served = new ConcurrentHashMap<>();

    /** A waiting claim's stage since {@code since}, and its wait by stage before that. */
    record Waiting(WaitStage stage, Instant since, ClaimStages before) {
        ClaimStages until(Instant now) {
            return before.plus(stage, Duration.between(since, now));
        }
    }

    ClaimTracking(PoolContext ctx) {
        this.ctx = ctx;
        this.driver = ctx.driver;
        this.claims = ctx.claims;
        this.listener = ctx.listener;
        this.sizing = ctx.sizing;
    }

    /**
     * Whether {@code claim} is the one {@code handle} was made for, not a later claim reusing its name. Creation
     * times are compared to the microsecond: durable stores (PostgreSQL) keep no finer time.
     */
    static boolean isHandleOf(ClaimHandle handle, Claim claim) {
        return claim.createdAt().truncatedTo(ChronoUnit.MICROS).equals(handle.createdAt().truncatedTo(ChronoUnit.MICROS));
    }

    /** The claim's wait ends now; its service is judged by the member as it was when the claim arrived. */
    void reportServed(String pool, String claimName, Member before, Instant claimCreatedAt, Instant now) {
        Waiting w = waiting.remove(claimName);
        if (claimCreatedAt == null) {
            return;
        }
        ClaimStages stages = w != null ? w.until(now) : ClaimStages.NONE.plus(WaitStage.QUEUE, Duration.between(claimCreatedAt, now));
        served.put(claimName, stages);
        if (ctx.spec.autoSizing().isPresent()) {
            sizing.served(claimCreatedAt, now);
        }
        if (listener == PoolListener.NONE || before == null) {
            return;
        }
        Duration wait = Duration.between(claimCreatedAt, now);
        ClaimService service = ClaimService.classify(before, claimCreatedAt);
        listener.claimServed(pool, service, wait.isNegative() ? Duration.ZERO : wait);
        listener.claimStages(pool, service, stages);
    }

    /**
     * Each waiting claim's time goes to the stage of the reason it had: from its creation to the first pass that
     * saw it counts as queue, then each pass's reason holds until the next pass.
     */
    void trackWaits(PoolPlan plan, List<Claim> live, Instant now) {
        Set<String> liveNames = new HashSet<>();
        live.forEach(c -> liveNames.add(c.name()));
        waiting.keySet().retainAll(liveNames);
        served.keySet().retainAll(liveNames);
        for (PoolPlan.PendingClaim pending : plan.reasons()) {
            Waiting w = waiting.get(pending.claimName());
            ClaimStages before = w != null ? w.until(now)
                    : ClaimStages.NONE.plus(WaitStage.QUEUE, Duration.between(pending.createdAt(), now));
            waiting.put(pending.claimName(), new Waiting(pending.reason().stage(), now, before));
        }
    }

    /**
     * Handles of claims assigned by another controller (or before a restart) complete here. A handle ends only when
     * its claim is missing both from this pass's read and from a lookup by name: one short read never cancels it.
     */
    void completeAssignedHandles(String pool, List<Claim> live) {
        if (handles.isEmpty()) {
            return;
        }
        Map<String, Claim> byName = new HashMap<>();
        live.forEach(c -> byName.put(c.name(), c));
        for (ClaimHandle handle : List.copyOf(handles.values())) {
            Claim claim = byName.get(handle.name());
            if (claim == null) {
                try {
                    claim = claims.find(pool, handle.name()).orElse(null);
                } catch (RuntimeException e) {
                    continue;
                }
            }
            if (claim == null || !isHandleOf(handle, claim)) {
                handles.remove(handle.name(), handle);
                handle.end();
            } else if (claim.assignedMember().isPresent()) {
                Claim assigned = claim;
                driver.find(pool, claim.assignedMember().get()).ifPresent(member -> {
                    if (handles.remove(handle.name(), handle) && handle.settle()) {
                        handle.serve(member);
                        assigned.outcome().ifPresent(handle::ended);
                    }
                });
            }
        }
    }
}
