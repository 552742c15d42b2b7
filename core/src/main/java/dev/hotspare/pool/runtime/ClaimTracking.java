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
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    /** Claims this controller served, kept while they are live: their wait (for explain) and member (for release). */
    final Map<String, Served> served = new ConcurrentHashMap<>();

    /** A waiting claim's stage since {@code since}, and its wait by stage before that. */
    record Waiting(WaitStage stage, Instant since, ClaimStages before) {
        ClaimStages until(Instant now) {
            return before.plus(stage, Duration.between(since, now));
        }
    }

    /**
     * A claim this controller served: its whole wait by stage, the member it was given and when the claim was made. A
     * claim's member never changes, so its release marks that member without reading the claim again (issue 22: the
     * read was a second round trip per release on PostgreSQL).
     */
    record Served(ClaimStages stages, String memberId, Instant claimCreatedAt) {
        /**
         * Whether a read that began at {@code readAt} and found {@code claim} under this name (empty: none) still shows
         * the claim served here: the same claim, pending in a read made before it was served or holding the same
         * member, or none in a read made before the claim was. Anything else is a later claim reusing its name.
         */
        boolean shownBy(Optional<Claim> claim, Instant readAt) {
            if (claim.isEmpty()) {
                return !claimCreatedAt.isBefore(readAt);
            }
            return claim.get().createdAt().truncatedTo(ChronoUnit.MICROS).equals(claimCreatedAt.truncatedTo(ChronoUnit.MICROS))
                    && claim.get().assignedMember().map(memberId::equals).orElse(true);
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
    void reportServed(String pool, String claimName, String memberId, Member before, Instant claimCreatedAt, Instant now) {
        Waiting w = waiting.remove(claimName);
        if (claimCreatedAt == null) {
            return;
        }
        ClaimStages stages = w != null ? w.until(now) : ClaimStages.NONE.plus(WaitStage.QUEUE, Duration.between(claimCreatedAt, now));
        served.put(claimName, new Served(stages, memberId, claimCreatedAt));
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
     * saw it counts as queue, then each pass's reason holds until the next pass. {@code live} is the pass's read and
     * {@code now} the pass's start, before that read.
     */
    void trackWaits(PoolPlan plan, List<Claim> live, Instant now) {
        Map<String, Claim> byName = new HashMap<>();
        live.forEach(c -> byName.put(c.name(), c));
        waiting.keySet().retainAll(byName.keySet());
        // Only the claim served here: a claim made since under the same name (elsewhere) is another claim. The read
        // began at now, so a claim served since may be missing from it or pending in it.
        served.entrySet().removeIf(e -> !e.getValue().shownBy(Optional.ofNullable(byName.get(e.getKey())), now));
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
