package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.pool.internal.PlanOverrides;
import dev.hotspare.pool.internal.PoolState;
import dev.hotspare.pool.internal.RecordRepair;
import dev.hotspare.pool.runtime.ClaimHandle.ClaimExpiredException;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.hotspare.pool.runtime.PoolContext.attempt;
import static dev.hotspare.pool.runtime.ClaimTracking.isHandleOf;

/**
 * Applies a pass's decisions through the ports: repairs member and claim records that disagree, then carries out the
 * plan (releases, assignments, power changes, orphan marks, deletes, creates). Every write that fails is logged and
 * left to the next pass.
 */
final class PlanApplier {

    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    private final PoolContext ctx;
    private final ClaimTracking tracking;
    private final MemberDriver driver;
    private final ClaimStore claims;
    private final PoolListener listener;
    private final Map<String, ClaimHandle> handles;
    private final Map<String, ClaimTracking.Waiting> waiting;
    private final Map<String, ClaimTracking.Served> served;

    PlanApplier(PoolContext ctx, ClaimTracking tracking) {
        this.ctx = ctx;
        this.tracking = tracking;
        this.driver = ctx.driver;
        this.claims = ctx.claims;
        this.listener = ctx.listener;
        this.handles = tracking.handles;
        this.waiting = tracking.waiting;
        this.served = tracking.served;
    }

    /**
     * Brings member and claim records back together before planning: writes the repairs {@link RecordRepair#decide}
     * asks for, in its order, and returns the claims with the writes that took, or empty when the records agreed;
     * {@code members} (the pass's read, as {@link PoolContext#table} returned it) and the table get the member records
     * the writes changed, in place. A write that fails is logged and left to the next pass; the repairs are then
     * decided again without it, so nothing that needs it (the ready mark of a claim it would have recorded) is written.
     */
    Optional<List<Claim>> repairRecords(String pool, List<Member> members, List<Claim> live, Instant now) {
        // Issue 22, pass cost: RecordRepair decides on the members that can need a repair only, never on the whole
        // pool. Its result is the same as on every member: decide() skips released members and unclaimed deleting
        // ones, and of the rest asks only for an OnClaim of a member naming a claim, an OnMember of a member a live
        // claim record names, and a Ready of a member naming a claim (as read, or once an OnMember is written) — the
        // members naming a claim without the release mark (table.naming()) and those the live claims name are all of
        // them. They go in the read's order, the order decide() answers in; applied() changes only members an
        // OnMember names, which are among them.
        List<Integer> at = repairCandidates(ctx.table, live);
        List<Member> candidates = new ArrayList<>(at.size());
        for (int i : at) {
            candidates.add(members.get(i));
        }
        Set<RecordRepair.Repair> failed = new HashSet<>();
        List<RecordRepair.Repair> repairs = RecordRepair.decide(candidates, live, now, failed);
        if (repairs.isEmpty()) {
            return Optional.empty();
        }
        PoolState records = new PoolState(candidates, live);
        List<RecordRepair.Repair> written = new ArrayList<>();
        while (!repairs.isEmpty()) {
            List<RecordRepair.Repair> next = List.of();
            for (RecordRepair.Repair repair : repairs) {
                if (write(pool, repair)) {
                    written.add(repair);
                    continue;
                }
                failed.add(repair);
                records = RecordRepair.applied(records, written);
                written.clear();
                next = RecordRepair.decide(records.members(), records.claims(), now, failed);
                break;
            }
            repairs = next;
        }
        records = RecordRepair.applied(records, written);
        for (int k = 0; k < at.size(); k++) {
            Member repaired = records.members().get(k);
            if (repaired != candidates.get(k)) {
                members.set(at.get(k), repaired);
                ctx.table.replaced(repaired);
            }
        }
        return Optional.of(new ArrayList<>(records.claims()));
    }

    /**
     * Positions in the pass's read of the members record repair can concern, ascending: those naming a claim without
     * the release mark, and those a live claim record names. {@code table} holds the pass's read.
     */
    static List<Integer> repairCandidates(MemberTable table, List<Claim> live) {
        java.util.TreeSet<Integer> at = new java.util.TreeSet<>(table.naming());
        for (Claim c : live) {
            c.assignedMember().ifPresent(id -> {
                int i = table.indexOf(id);
                if (i >= 0) {
                    at.add(i);
                }
            });
        }
        return new ArrayList<>(at);
    }

    /** Writes one repair; whether it took. */
    private boolean write(String pool, RecordRepair.Repair repair) {
        if (repair instanceof RecordRepair.OnClaim on) {
            ClaimStore.AssignOutcome outcome = tryAssignClaim(pool, on.claimName(), on.memberId(), on.assignedAt());
            if (outcome == ClaimStore.AssignOutcome.ASSIGNED || outcome == ClaimStore.AssignOutcome.ALREADY_ASSIGNED) {
                return true;
            }
            if (outcome != null) {
                LOG.warn("pool {}: member {} names pending claim {}, but the claim store answered {}; the plan "
                        + "settles it", pool, on.memberId(), on.claimName(), outcome);
            }
            return false;
        }
        if (repair instanceof RecordRepair.OnMember on) {
            return attempt(pool, "record claim " + on.claimName() + " on member " + on.memberId(),
                    () -> driver.assign(pool, on.memberId(), on.claimName(), on.claimedAt()));
        }
        RecordRepair.Ready ready = (RecordRepair.Ready) repair;
        return attempt(pool, "mark claim " + ready.claimName() + " ready", () -> claims.markReady(pool, ready.claimName(), ready.readyAt()));
    }

    private ClaimStore.AssignOutcome tryAssignClaim(String pool, String claimName, String memberId, Instant at) {
        try {
            return claims.assign(pool, claimName, memberId, at);
        } catch (RuntimeException e) {
            LOG.warn("pool {}: recording member {} on claim {} failed; the next pass retries: {}", pool, memberId,
                    claimName, e.toString());
            return null;
        }
    }

    void apply(String pool, PoolPlan plan, List<Member> observed, List<Claim> live, Instant now) {
        Set<String> unmarked = new HashSet<>();
        applyReleases(pool, plan, now, unmarked);
        applyAssignments(pool, plan, observed, live, now);
        int writes = 0;
        for (PoolPlan.PowerChange change : plan.powerChanges()) {
            attempt(pool, "power " + change.memberId() + " " + change.to(),
                    () -> driver.setDesiredPower(pool, change.memberId(), change.to()));
            writes = afterWrite(writes);
        }
        for (PoolPlan.OrphanMark mark : plan.orphanMarks()) {
            attempt(pool, (mark.since().isPresent() ? "mark " : "unmark ") + mark.memberId() + " orphaned",
                    () -> driver.markOrphaned(pool, mark.memberId(), mark.since()));
        }
        // The lookups are I/O and stay here; which to make and what they mean for the deletes is decided purely.
        Set<String> liveAgain = new HashSet<>();
        PlanOverrides.lookupsBeforeDelete(plan, unmarked).forEach((memberId, claimName) -> {
            if (claimStillLive(pool, memberId, claimName)) {
                liveAgain.add(memberId);
            }
        });
        int deleted = 0;
        for (PoolPlan.Delete delete : PoolPlanner.confirmedDeletes(plan, unmarked, liveAgain)) {
            if (attempt(pool, () -> "delete " + delete.memberId(), () -> driver.delete(pool, delete.memberId()))) {
                deleted++;
            }
            writes = afterWrite(writes);
        }
        int created = 0;
        for (PoolPlan.Create create : plan.creates()) {
            if (attempt(pool, "create member", () -> driver.create(pool, create.templateVersion(), create.power()))) {
                created++;
            }
            writes = afterWrite(writes);
        }
        if (deleted > 0) {
            listener.scaled(pool, ScaleOperation.DELETE, deleted);
        }
        if (created > 0) {
            listener.scaled(pool, ScaleOperation.CREATE, created);
        }
    }

    /** Counts one write; every {@link YieldToClaims#WRITES_BETWEEN} of them is a yield point. */
    private int afterWrite(int writes) {
        if ((writes + 1) % YieldToClaims.WRITES_BETWEEN == 0) {
            ctx.yields.point();
        }
        return writes + 1;
    }

    /**
     * A claim expires by marking its member released first; only then does the claim end. A member whose mark
     * could not be written is noted ({@code unmarked}): {@link PoolPlanner#confirmedDeletes} keeps it, and its claim
     * stays live for the next pass to retry.
     */
    private void applyReleases(String pool, PoolPlan plan, Instant now, Set<String> unmarked) {
        for (PoolPlan.Release release : plan.releases()) {
            if (release.reason() == PoolPlan.ReleaseReason.LIFETIME_EXPIRED && release.memberId().isPresent()) {
                String memberId = release.memberId().get();
                if (!attempt(pool, "mark " + memberId + " released", () -> driver.markReleased(pool, memberId, now))) {
                    unmarked.add(memberId);
                    continue;
                }
            }
            if (release.reason() == PoolPlan.ReleaseReason.DEADLINE_PASSED) {
                expire(pool, release.claimName(), now);
                continue;
            }
            attempt(pool, "release claim " + release.claimName(), () -> claims.release(pool, release.claimName()));
            ClaimHandle handle = handles.remove(release.claimName());
            if (handle != null) {
                handle.end();
            }
            waiting.remove(release.claimName());
            served.remove(release.claimName());
        }
    }

    /**
     * A pending claim whose deadline passed leaves the store only if still pending (another controller may have
     * served it meanwhile); then its handle fails with {@link ClaimExpiredException} and EXPIRED is reported.
     */
    private void expire(String pool, String claimName, Instant now) {
        Optional<Claim> claim;
        boolean[] removed = new boolean[1];
        try {
            claim = claims.find(pool, claimName);
        } catch (RuntimeException e) {
            LOG.warn("pool {}: reading expired claim {} failed; the next pass retries: {}", pool, claimName, e.toString());
            return;
        }
        // Read again: a claim made since under the same name is expired only if its own deadline has come too.
        if (claim.isEmpty() || !claim.get().isExpiredAt(now)
                || !attempt(pool, "expire claim " + claimName, () -> removed[0] = claims.releasePending(pool, claimName))
                || !removed[0]) {
            return;
        }
        Instant deadline = claim.get().deadline().get();
        LOG.info("pool {}: claim {} expired unserved at its deadline {}", pool, claimName, deadline);
        waiting.remove(claimName);
        served.remove(claimName);
        ClaimHandle handle = handles.remove(claimName);
        if (handle != null && isHandleOf(handle, claim.get())) {
            handle.expire(new ClaimExpiredException(pool, claimName, deadline));
        } else if (handle != null) {
            handle.end();
        }
        listener.claimEnded(pool, claimName, ClaimOutcome.EXPIRED);
    }

    private void applyAssignments(String pool, PoolPlan plan, List<Member> observed, List<Claim> live, Instant now) {
        if (plan.assignments().isEmpty()) {
            return;
        }
        // The pass's read, by id, from the table kept between passes (issue 22): no map of the whole pool here.
        java.util.function.Function<String, Member> byId = ctx.table::get;
        Map<String, Instant> claimCreatedAt = new HashMap<>();
        for (Claim c : live) {
            claimCreatedAt.put(c.name(), c.createdAt());
        }
        // Member records first, one by one (the driver's writes); then every claim record in one batch, ready at once.
        List<PoolPlan.Assignment> written = new ArrayList<>(plan.assignments().size());
        List<ClaimStore.Assignment> batch = new ArrayList<>(plan.assignments().size());
        for (PoolPlan.Assignment assignment : plan.assignments()) {
            Member before = byId.apply(assignment.memberId());
            String claimName = assignment.claimName();
            Instant createdAt = claimCreatedAt.get(claimName);
            Optional<ClaimOutcome> servedAs = before == null || createdAt == null ? Optional.empty()
                    : Optional.of(ClaimOutcome.served(ClaimService.classify(before, createdAt)));
            if (attempt(pool, () -> "assign " + assignment.memberId() + " to " + claimName,
                    () -> driver.assign(pool, assignment.memberId(), claimName, assignment.claimedAt()))) {
                written.add(assignment);
                batch.add(new ClaimStore.Assignment(claimName, assignment.memberId(), assignment.claimedAt(), servedAs));
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        List<ClaimStore.AssignOutcome> outcomes;
        try {
            outcomes = claims.assignAll(pool, batch, now);
        } catch (RuntimeException e) {
            // The members name their claims; the next pass records them on the claims (repairRecords).
            LOG.warn("pool {}: recording {} assignment(s) on the claims failed; the next pass retries: {}", pool,
                    batch.size(), e.toString());
            return;
        }
        for (int i = 0; i < written.size(); i++) {
            PoolPlan.Assignment assignment = written.get(i);
            Member before = byId.apply(assignment.memberId());
            String claimName = assignment.claimName();
            Instant createdAt = claimCreatedAt.get(claimName);
            Optional<ClaimOutcome> servedAs = batch.get(i).outcome();
            if (took(pool, assignment, outcomes.get(i), now)) {
                served(pool, assignment, before, createdAt, now, servedAs);
            }
        }
    }

    /**
     * Whether the claim store's answer means the claim now holds the member; a claim that ended meanwhile gets its
     * member marked released at once, any other refusal is left to the next pass.
     */
    private boolean took(String pool, PoolPlan.Assignment assignment, ClaimStore.AssignOutcome outcome, Instant now) {
        if (outcome == ClaimStore.AssignOutcome.CLAIM_NOT_FOUND) {
            // The claim ended between the read and this write: the member now names a claim known to be gone.
            // Mark it released at once instead of waiting out the orphan grace period.
            attempt(pool, "mark " + assignment.memberId() + " released (its claim ended meanwhile)",
                    () -> driver.markReleased(pool, assignment.memberId(), now));
            return false;
        }
        if (outcome != ClaimStore.AssignOutcome.ASSIGNED && outcome != ClaimStore.AssignOutcome.ALREADY_ASSIGNED) {
            LOG.warn("pool {}: assigning {} to {}: the claim store answered {}; the next pass settles it", pool,
                    assignment.memberId(), assignment.claimName(), outcome);
            return false;
        }
        return true;
    }

    /** A claim that took its member: the listeners, the wait KPIs and the claimer's handle hear of it. */
    private void served(String pool, PoolPlan.Assignment assignment, Member before, Instant createdAt, Instant now,
                        Optional<ClaimOutcome> servedAs) {
        String claimName = assignment.claimName();
        listener.onClaimAssigned(pool, assignment, before);
        tracking.reportServed(pool, claimName, assignment.memberId(), before, createdAt, now);
        ClaimHandle handle = handles.remove(claimName);
        if (handle != null && handle.settle()) {
            // The claimer gets the member as it now is: claimed by it, running.
            handle.serve(before.claimName().isPresent() ? before : before.assignedTo(claimName, assignment.claimedAt()));
        }
        if (servedAs.isPresent()) {
            listener.claimEnded(pool, claimName, servedAs.get());
            if (handle != null) {
                handle.ended(servedAs.get());
            }
        }
    }

    /** A hand-out whose member record the fast path has written: the assignment, the member before it, the claim. */
    record HandedOver(PoolPlan.Assignment assignment, Member before, Claim claim) {
    }

    /**
     * Hand-outs whose member records the caller has written (the fast path): the claims' records and ready marks in
     * one store call, as a pass writes its batches (one statement on PostgreSQL), then the listeners and the handles.
     * Answers, per hand-out, whether the claim now holds its member.
     */
    List<Boolean> writeAssignments(String pool, List<HandedOver> handedOver, Instant now) {
        if (handedOver.isEmpty()) {
            return List.of();
        }
        List<ClaimStore.Assignment> batch = new ArrayList<>(handedOver.size());
        for (HandedOver h : handedOver) {
            batch.add(new ClaimStore.Assignment(h.assignment().claimName(), h.assignment().memberId(),
                    h.assignment().claimedAt(),
                    Optional.of(ClaimOutcome.served(ClaimService.classify(h.before(), h.claim().createdAt())))));
        }
        List<ClaimStore.AssignOutcome> outcomes;
        try {
            outcomes = claims.assignAll(pool, batch, now);
        } catch (RuntimeException e) {
            // The members name their claims; the next pass records them on the claims (repairRecords).
            LOG.warn("pool {}: recording {} assignment(s) made at once on the claims failed; the next pass retries: {}",
                    pool, batch.size(), e.toString());
            return Collections.nCopies(handedOver.size(), false);
        }
        List<Boolean> out = new ArrayList<>(handedOver.size());
        for (int i = 0; i < handedOver.size(); i++) {
            HandedOver h = handedOver.get(i);
            boolean took = took(pool, h.assignment(), outcomes.get(i), now);
            if (took) {
                served(pool, h.assignment(), h.before(), h.claim().createdAt(), now, batch.get(i).outcome());
            }
            out.add(took);
        }
        return out;
    }

    /** Before an orphan is deleted its claim is looked up once more by name; found, the member stays. */
    private boolean claimStillLive(String pool, String memberId, String claimName) {
        if (claimName == null) {
            return false;
        }
        try {
            Optional<Claim> claim = claims.find(pool, claimName);
            if (claim.isPresent()) {
                LOG.info("pool {}: claim {} of orphaned member {} is live after all; keeping the member", pool, claimName, memberId);
                return true;
            }
            return false;
        } catch (RuntimeException e) {
            LOG.warn("pool {}: could not confirm that claim {} is gone; keeping member {} for now: {}", pool, claimName,
                    memberId, e.toString());
            return true;
        }
    }
}
