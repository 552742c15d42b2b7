package dev.hotspare.pool;

import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan.Assignment;
import dev.hotspare.pool.PoolPlan.Create;
import dev.hotspare.pool.PoolPlan.Delete;
import dev.hotspare.pool.PoolPlan.DeleteReason;
import dev.hotspare.pool.PoolPlan.Orphan;
import dev.hotspare.pool.PoolPlan.OrphanMark;
import dev.hotspare.pool.PoolPlan.PendingClaim;
import dev.hotspare.pool.PoolPlan.PowerChange;
import dev.hotspare.pool.PoolPlan.Release;
import dev.hotspare.pool.PoolPlan.ReleaseReason;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;
import java.math.RoundingMode;
import java.math.BigDecimal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what a pool should do next: the Hive ClusterPool algorithm with {@code runningCount} hot spares,
 * FIFO claim assignment and {@code hibernateAfter} for claimed members, in one pure pass. Claims of several
 * priority classes are served in {@link #serviceOrder} (FIFO within a class, with aging); a pending claim whose
 * deadline has come is released with {@link ReleaseReason#DEADLINE_PASSED}.
 *
 * <p>Pure: it reads only its arguments (never the clock, never I/O) and never mutates them. Members are
 * ordered by (createdAt, id) and claims by (createdAt, name) everywhere — power planning, assignment and
 * deletion use the same order, so the pool cannot thrash between two notions of "oldest" (HIVE-1747).
 * The rules are documented step by step in {@code docs/pools.md}.
 *
 * <p>A claimed member is deleted only when it carries the release mark, when its claim's lifetime ran out, when
 * its claim record names another member, or when its claim has been missing from the claim store for the whole
 * {@code orphanGracePeriod} — never because one read of the claim store came back short.
 */
public final class PoolPlanner {

    private PoolPlanner() {
    }

    /**
     * The order pending claims are served in at {@code now}. A claim is <em>aged</em> once it has waited
     * {@code agingLimit} ({@code now >= createdAt + agingLimit}). Aged claims go first, oldest first
     * ({@link Claim#TOTAL_ORDER}); then the others, higher {@link ClaimClass#priority()} first and oldest first
     * within a priority. Hence: FIFO within a class; a single-class pool is plain FIFO; and once a claim is aged
     * only claims older than it can be served before it.
     *
     * @param agingLimit the pool's aging limit
     * @param now        the decision time
     * @return a total order on claims (names are unique within a pool)
     */
    public static Comparator<Claim> serviceOrder(Duration agingLimit, Instant now) {
        Comparator<Claim> agedFirst = Comparator.comparing(c -> !isAged(c, agingLimit, now));
        return agedFirst
                .thenComparing(c -> isAged(c, agingLimit, now) ? 0 : -(long) c.claimClass().priority())
                .thenComparing(Claim.TOTAL_ORDER);
    }

    /**
     * Whether {@code claim} has waited at least {@code agingLimit} at {@code now}.
     *
     * @param agingLimit the pool's aging limit
     * @param now        the decision time
     * @return true once {@code now >= createdAt + agingLimit}
     */
    public static boolean isAged(Claim claim, Duration agingLimit, Instant now) {
        return !now.isBefore(claim.createdAt().plus(agingLimit));
    }

    /**
     * Plans the next step of pool {@code spec} given what is observed, with no typical durations known (pending
     * claims get no expected ready time).
     *
     * @param spec    the desired pool
     * @param members every member of the pool, in any order
     * @param claims  every live claim of the pool (pending or assigned), in any order
     * @param now     the decision time
     * @return the plan; empty when the pool is at its fixpoint
     * @throws ValidationException when two members share an id or two claims share a name
     */
    public static PoolPlan plan(PoolSpec spec, Collection<Member> members, Collection<Claim> claims, Instant now) {
        return plan(spec, members, claims, now, TypicalDurations.UNKNOWN);
    }

    /**
     * Plans the next step of pool {@code spec} given what is observed.
     *
     * @param spec    the desired pool
     * @param members every member of the pool, in any order
     * @param claims  every live claim of the pool (pending or assigned), in any order
     * @param now     the decision time
     * @param typical how long installs and resumes usually take; used only for the expected ready times of
     *                pending claims, never for a decision
     * @return the plan; empty when the pool is at its fixpoint
     * @throws ValidationException when two members share an id or two claims share a name
     */
    public static PoolPlan plan(PoolSpec spec, Collection<Member> members, Collection<Claim> claims, Instant now,
                                TypicalDurations typical) {
        Member[] ordered = members.toArray(new Member[0]);
        Arrays.sort(ordered, Member.TOTAL_ORDER);
        // Claims are not sorted as a whole: only the few that are released or wait are put in order, where they are.
        Claim[] unorderedClaims = claims.toArray(new Claim[0]);
        return new Pass(spec, ordered, unorderedClaims, now, typical).run();
    }

    /**
     * The deletes of {@code plan} that still hold once the steps applied before them are known — the runtime's
     * overrides, decided here so they stay pure and tested with the rest: a member whose claim's lifetime ran out is
     * deleted only if its release mark was written (otherwise its claim stays live and the next pass retries), and a
     * member whose claim was missing from the read ({@link DeleteReason#CLAIM_GONE}) only if a lookup of that claim by
     * name, made just before, confirmed it gone.
     *
     * @param plan      the plan being applied
     * @param unmarked  ids of members whose release mark could not be written
     * @param liveAgain ids of orphaned members whose claim a lookup found live again, or could not confirm gone
     * @return the deletes to carry out, in plan order
     */
    public static List<Delete> confirmedDeletes(PoolPlan plan, Set<String> unmarked, Set<String> liveAgain) {
        List<Delete> out = new ArrayList<>(plan.deletes().size());
        for (Delete delete : plan.deletes()) {
            if (unmarked.contains(delete.memberId())) {
                continue;
            }
            if (delete.reason() == DeleteReason.CLAIM_GONE && liveAgain.contains(delete.memberId())) {
                continue;
            }
            out.add(delete);
        }
        return out;
    }

    /** One planning pass; holds the working state so each step stays a short method. */
    private static final class Pass {
        private final PoolSpec spec;
        private final Member[] members;
        private final Claim[] claims;
        private final Instant now;
        private final TypicalDurations typical;

        private final Map<String, Claim> claimByName;
        private final Set<String> heldClaims;

        // Unclaimed, not deleting, in total order. `eligible` = provisioning + standby + running.
        private final List<Member> eligible;
        private final List<Member> broken = new ArrayList<>();
        private final List<Member> claimed = new ArrayList<>();
        private final List<Member> released = new ArrayList<>();
        /** Members this plan assigns or deletes, by identity: cheaper than hashing every member's id on every step. */
        private final Set<Member> leaving = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Members this plan deletes, by identity. */
        private final Set<Member> deletedNow = Collections.newSetFromMap(new IdentityHashMap<>());
        /** Unclaimed members a live claim record names, by identity, with that claim (see heldByStore). */
        private final Map<Member, Claim> namedByClaim = new IdentityHashMap<>();
        private int provisioningUnclaimed;
        private int deleting;
        private boolean emptyClaimRead;

        private final List<Release> releases = new ArrayList<>();
        private final Set<String> releasedClaims = new HashSet<>();
        private final List<Assignment> assignments = new ArrayList<>();
        private final List<PowerChange> powerChanges = new ArrayList<>();
        private final List<OrphanMark> orphanMarks = new ArrayList<>();
        private final List<Delete> deletes = new ArrayList<>();
        private final List<Create> creates = new ArrayList<>();
        private final List<Orphan> orphans = new ArrayList<>();
        private long budget;

        Pass(PoolSpec spec, Member[] members, Claim[] claims, Instant now, TypicalDurations typical) {
            this.spec = spec;
            this.members = members;
            this.claims = claims;
            this.now = now;
            this.typical = typical;
            this.claimByName = indexClaims(claims);
            this.heldClaims = new HashSet<>(Math.max(16, claims.length * 2));
            this.eligible = new ArrayList<>(members.length);
            IdTable byId = requireUniqueIds(members);
            // The few unclaimed members a claim record names, found from the claims' side: no lookup per member.
            for (Claim claim : claims) {
                if (claim.assignedMember().isPresent()) {
                    Member m = byId.get(claim.assignedMember().get());
                    if (m != null && !m.isClaimed()) {
                        // Two records naming one member: the later claim in the total order counts, whatever the input order.
                        namedByClaim.merge(m, claim, (a, b) -> Claim.TOTAL_ORDER.compare(a, b) >= 0 ? a : b);
                    }
                }
            }
        }

        PoolPlan run() {
            classify();
            budget = spec.maxConcurrent().isPresent()
                    ? (long) spec.maxConcurrent().getAsInt() - provisioningUnclaimed - deleting
                    : Long.MAX_VALUE;
            deleteReleased();
            settleClaimedMembers();
            releaseClaimsWithoutMember();
            List<Claim> pending = pendingClaims();
            int assigned = spec.deleted() ? 0 : assignFifo(pending);
            List<Claim> stillPending = pending.subList(assigned, pending.size());
            if (spec.deleted()) {
                deleteUnclaimed();
            } else {
                sizeTheUnclaimed(stillPending.size());
                planPower(stillPending.size());
            }
            hibernateClaimed();
            List<PendingClaim> reasons = reasons(stillPending);
            return new PoolPlan(releases, assignments, powerChanges, orphanMarks, deletes, creates, reasons, orphans,
                    status(stillPending.size()));
        }

        private void classify() {
            boolean anyHeld = false;
            for (Member m : members) {
                if (m.phase() == MemberPhase.DELETING) {
                    deleting++;
                    m.claimName().ifPresent(heldClaims::add);
                    continue;
                }
                if (m.isReleased()) {
                    released.add(m);
                    m.claimName().map(claimByName::get).filter(c -> c.assignedMember().map(m.id()::equals).orElse(false))
                            .ifPresent(c -> heldClaims.add(c.name()));
                    continue;
                }
                Member held = m.isClaimed() ? m : heldByStore(m);
                if (held.isClaimed()) {
                    Claim claim = claimByName.get(held.claimName().get());
                    if (claim != null && held.serves(claim)) {
                        heldClaims.add(claim.name());
                    }
                    claimed.add(held);
                    anyHeld = true;
                    continue;
                }
                if (isBroken(m)) {
                    broken.add(m);
                } else {
                    eligible.add(m);
                    if (m.phase() == MemberPhase.PROVISIONING) {
                        provisioningUnclaimed++;
                    }
                }
            }
            emptyClaimRead = anyHeld && claims.length == 0;
        }

        /**
         * A member no claim is recorded on, but whose id a live claim record names: the claim store's assignment
         * (compare-and-set) decides, so it counts as held by that claim. The runtime writes the claim onto the
         * member before planning; a pure caller sees the same decision.
         */
        private Member heldByStore(Member m) {
            Claim claim = namedByClaim.isEmpty() ? null : namedByClaim.get(m);
            if (claim == null) {
                return m;
            }
            return new Member(m.id(), m.createdAt(), m.templateVersion(), m.phase(), m.desiredPower(), m.observedPower(),
                    m.observedPowerSince(), m.installedAt(), m.lastBecameRunningAt(), Optional.of(claim.name()),
                    claim.assignedAt(), m.releasedAt(), Optional.empty());
        }

        private boolean isBroken(Member m) {
            if (m.phase() == MemberPhase.FAILED) {
                return true;
            }
            // Only a resume the pool asked for can time out: a member it wants hibernating may take its time.
            return m.observedPower() == ObservedPower.RESUMING && m.desiredPower() == DesiredPower.RUNNING
                    && spec.resumeTimeout().isPresent()
                    && Duration.between(m.observedPowerSince(), now).compareTo(spec.resumeTimeout().get()) >= 0;
        }

        /** Step 2a: members carrying the release mark go first in the budget; an interrupted release is finished. */
        private void deleteReleased() {
            for (Member m : released) {
                m.claimName().ifPresent(name -> {
                    // Only the claim record that names this member is finished: a pending claim of the same name
                    // is a new claim made after the release.
                    Claim claim = claimByName.get(name);
                    if (claim != null && claim.assignedMember().map(m.id()::equals).orElse(false)) {
                        release(new Release(name, Optional.of(m.id()), ReleaseReason.RELEASED, "member '" + m.id()
                                + "' carries the release mark since " + m.releasedAt().get() + "; finishing the release"));
                    }
                });
                if (budget > 0) {
                    deleteMember(m, DeleteReason.RELEASED, "released at " + m.releasedAt().get());
                }
            }
        }

        /** Step 2b: orphans, race losers and expired lifetimes among the claimed members. */
        private void settleClaimedMembers() {
            for (Member m : claimed) {
                String claimName = m.claimName().get();
                Claim claim = claimByName.get(claimName);
                if (claim == null || (claim.assignedMember().isEmpty() && !m.serves(claim))) {
                    // Missing from this read, or only a newer claim reusing the name: this member's claim is not live.
                    orphan(m, claimName);
                    continue;
                }
                if (claim.assignedMember().isPresent() && !claim.assignedMember().get().equals(m.id())) {
                    // Two writers raced: the claim record names another member. That one is the claim's;
                    // this member is nobody's and, having been handed out, is never reused.
                    if (budget > 0) {
                        deleteMember(m, DeleteReason.CLAIM_HOLDS_ANOTHER, "claim '" + claimName + "' holds member '"
                                + claim.assignedMember().get() + "', not this one");
                    }
                    continue;
                }
                Optional<Duration> lifetime = spec.claimLifetime().effective(claim.lifetime());
                Optional<Instant> start = claim.assignedAt().or(m::claimedAt);
                if (lifetime.isPresent() && start.isPresent() && !now.isBefore(start.get().plus(lifetime.get()))) {
                    String detail = "lifetime " + lifetime.get() + " since " + start.get() + " has passed";
                    release(new Release(claimName, Optional.of(m.id()), ReleaseReason.LIFETIME_EXPIRED, detail));
                    if (budget > 0) {
                        deleteMember(m, DeleteReason.CLAIM_EXPIRED, detail);
                    } else {
                        // Marked released by this plan; deleted as RELEASED once the budget allows.
                        leaving.add(m);
                    }
                    continue;
                }
                if (m.orphanedSince().isPresent()) {
                    orphanMarks.add(new OrphanMark(m.id(), claimName, Optional.empty(),
                            "claim '" + claimName + "' is live again"));
                }
            }
        }

        /**
         * A claimed member whose claim is not in this read: orphaned, not released. It is deleted only once its
         * claim has been missing for the whole grace period — and never on a pass whose read listed no claim at all.
         */
        private void orphan(Member m, String claimName) {
            Instant since = m.orphanedSince().orElse(now);
            Instant deletableAt = since.plus(spec.orphanGracePeriod());
            orphans.add(new Orphan(m.id(), claimName, since, deletableAt));
            if (emptyClaimRead) {
                return;
            }
            if (!now.isBefore(deletableAt) && budget > 0) {
                deleteMember(m, DeleteReason.CLAIM_GONE, "claim '" + claimName + "' missing from the claim store since "
                        + since + "; orphanGracePeriod " + spec.orphanGracePeriod() + " has passed");
            } else if (m.orphanedSince().isEmpty()) {
                orphanMarks.add(new OrphanMark(m.id(), claimName, Optional.of(now),
                        "claim '" + claimName + "' missing from the claim store"));
            }
        }

        /** Step 2c: a claim whose member vanished, or holds another claim, is released. */
        private void releaseClaimsWithoutMember() {
            // A member list with nothing in it while claims hold members is a read to distrust, like an empty
            // claim list: the claims stay until a read shows their members gone.
            if (members.length == 0) {
                return;
            }
            List<Claim> gone = new ArrayList<>();
            for (Claim claim : claims) {
                if (claim.assignedMember().isPresent() && !heldClaims.contains(claim.name())) {
                    gone.add(claim);
                }
            }
            gone.sort(Claim.TOTAL_ORDER);
            for (Claim claim : gone) {
                release(new Release(claim.name(), claim.assignedMember(), ReleaseReason.MEMBER_GONE,
                        "member '" + claim.assignedMember().get() + "' no longer holds it"));
            }
        }

        private void release(Release release) {
            if (releasedClaims.add(release.claimName())) {
                releases.add(release);
            }
        }

        /**
         * Pending claims in service order; a pending claim whose deadline has come is released instead (it can no
         * longer be served).
         */
        private List<Claim> pendingClaims() {
            List<Claim> pending = new ArrayList<>();
            List<Claim> expired = new ArrayList<>();
            for (Claim claim : claims) {
                if (claim.assignedMember().isEmpty() && !heldClaims.contains(claim.name())) {
                    (claim.isExpiredAt(now) ? expired : pending).add(claim);
                }
            }
            expired.sort(Claim.TOTAL_ORDER);
            for (Claim claim : expired) {
                release(new Release(claim.name(), Optional.empty(), ReleaseReason.DEADLINE_PASSED,
                        "deadline " + claim.deadline().get() + " passed before it was served"));
            }
            pending.sort(serviceOrder(spec.agingLimit(), now));
            return pending;
        }

        /** Step 3: the first pending claims in service order get the oldest running members, pairwise. */
        private int assignFifo(List<Claim> pending) {
            int next = 0;
            for (int i = 0; i < eligible.size() && next < pending.size(); i++) {
                Member m = eligible.get(i);
                if (m.phase() == MemberPhase.READY && m.observedPower() == ObservedPower.RUNNING) {
                    Claim claim = pending.get(next++);
                    assignments.add(new Assignment(claim.name(), m.id(), now, claim.claimClass().equals(ClaimClass.DEFAULT)
                            ? "oldest pending claim gets the oldest running member"
                            : "first pending claim in service order (class " + claim.claimClass().name() + ", priority "
                            + claim.claimClass().priority() + ") gets the oldest running member"));
                    leaving.add(m);
                }
            }
            return next;
        }

        /** Step 5: keep size + pending claims unclaimed members, within maxSize and maxConcurrent. */
        private void sizeTheUnclaimed(int unassignedPending) {
            // Counted first; the members by kind are listed only when some must go (most passes delete none).
            int provisioning = 0;
            int staying = 0;
            for (Member m : eligible) {
                if (leaving.contains(m)) {
                    continue;
                }
                staying++;
                if (m.phase() == MemberPhase.PROVISIONING) {
                    provisioning++;
                }
            }
            long unclaimed = (long) staying + broken.size();
            long drift = unclaimed - spec.size() - unassignedPending;
            if (budget <= 0) {
                return;
            }
            int all = members.length;
            if (drift < 0 && (spec.maxSize().isEmpty() || all < spec.maxSize().getAsInt())) {
                long room = spec.maxSize().isPresent() ? spec.maxSize().getAsInt() - all : Long.MAX_VALUE;
                long count = Math.min(Math.min(-drift, room), budget);
                String reason = "unclaimed " + unclaimed + " < size " + spec.size() + " + pending claims " + unassignedPending;
                for (long i = 0; i < count; i++) {
                    creates.add(new Create(spec.templateVersion(), DesiredPower.UNSET, reason));
                }
                budget -= count;
                return;
            }
            if (!broken.isEmpty()) {
                for (Member m : broken) {
                    if (budget <= 0) {
                        break;
                    }
                    deleteMember(m, DeleteReason.BROKEN, brokenDetail(m));
                }
                return;
            }
            if (drift > 0) {
                List<Member> standby = new ArrayList<>();
                List<Member> running = new ArrayList<>();
                List<Member> provisioningMembers = new ArrayList<>();
                for (Member m : eligible) {
                    if (leaving.contains(m)) {
                        continue;
                    }
                    if (m.phase() == MemberPhase.PROVISIONING) {
                        provisioningMembers.add(m);
                    } else if (m.observedPower() == ObservedPower.RUNNING) {
                        running.add(m);
                    } else {
                        standby.add(m);
                    }
                }
                long count = Math.min(drift, budget);
                String reason = "unclaimed " + unclaimed + " > size " + spec.size() + " + pending claims " + unassignedPending;
                for (int i = provisioningMembers.size() - 1; i >= 0 && count > 0; i--, count--) {
                    deleteMember(provisioningMembers.get(i), DeleteReason.EXCESS, reason + " (provisioning, newest first)");
                }
                for (int i = 0; i < standby.size() && count > 0; i++, count--) {
                    deleteMember(standby.get(i), DeleteReason.EXCESS, reason + " (standby, oldest first)");
                }
                for (int i = 0; i < running.size() && count > 0; i++, count--) {
                    deleteMember(running.get(i), DeleteReason.EXCESS, reason + " (running, oldest first)");
                }
                return;
            }
            if (drift == 0 && provisioning == 0) {
                rotateOneStale();
            }
        }

        /** Unknown template versions go before stale ones, oldest first within each; one member per pass. */
        private void rotateOneStale() {
            for (Member m : eligible) {
                if (!leaving.contains(m) && !m.isTemplateVersionKnown()) {
                    deleteMember(m, DeleteReason.STALE_TEMPLATE, "no template version recorded (unknown, not "
                            + spec.templateVersion() + "); unknown members are replaced first, one at a time");
                    return;
                }
            }
            for (Member m : eligible) {
                if (!leaving.contains(m) && !m.templateVersion().equals(spec.templateVersion())) {
                    deleteMember(m, DeleteReason.STALE_TEMPLATE, "template " + m.templateVersion()
                            + " is not the pool's " + spec.templateVersion() + "; replacing one at a time");
                    return;
                }
            }
        }

        private String brokenDetail(Member m) {
            return m.phase() == MemberPhase.FAILED ? "failed"
                    : "resuming since " + m.observedPowerSince() + ", at least resumeTimeout " + spec.resumeTimeout().orElseThrow();
        }

        /**
         * A deleted pool: unclaimed members go within the budget — provisioning (newest first), standby, running,
         * and broken last, as Hive's deletion path; claimed ones stay until released.
         */
        private void deleteUnclaimed() {
            List<Member> order = new ArrayList<>();
            List<Member> provisioning = new ArrayList<>();
            List<Member> standby = new ArrayList<>();
            List<Member> running = new ArrayList<>();
            for (Member m : eligible) {
                if (m.phase() == MemberPhase.PROVISIONING) {
                    provisioning.add(0, m);
                } else if (m.observedPower() == ObservedPower.RUNNING) {
                    running.add(m);
                } else {
                    standby.add(m);
                }
            }
            order.addAll(provisioning);
            order.addAll(standby);
            order.addAll(running);
            order.addAll(broken);
            for (Member m : order) {
                if (budget <= 0) {
                    return;
                }
                deleteMember(m, DeleteReason.POOL_DELETED, "the pool is being deleted");
            }
        }

        /** Step 4: the oldest runningCount + pending eligible members run, the rest hibernate; new members included. */
        private void planPower(int unassignedPending) {
            long slots = (long) spec.runningCount() + unassignedPending;
            long slot = 0;
            for (Member m : eligible) {
                if (leaving.contains(m)) {
                    continue;
                }
                DesiredPower target = slot < slots ? DesiredPower.RUNNING : DesiredPower.HIBERNATING;
                if (m.desiredPower() != target) {
                    powerChanges.add(new PowerChange(m.id(), m.desiredPower(), target, slotReason(slot, slots)));
                }
                slot++;
            }
            for (int i = 0; i < creates.size(); i++, slot++) {
                Create c = creates.get(i);
                DesiredPower power = slot < slots ? DesiredPower.RUNNING : DesiredPower.HIBERNATING;
                creates.set(i, new Create(c.templateVersion(), power, c.reason() + "; " + slotReason(slot, slots)));
            }
        }

        private static String slotReason(long slot, long slots) {
            return slot < slots
                    ? "running slot " + (slot + 1) + " of " + slots
                    : "beyond the " + slots + " running slots";
        }

        /** Step 6: a claimed running member hibernates hibernateAfter after it last started running or was claimed. */
        private void hibernateClaimed() {
            if (spec.hibernateAfter().isEmpty()) {
                return;
            }
            Duration after = spec.hibernateAfter().get();
            for (Member m : claimed) {
                if (leaving.contains(m) || m.observedPower() != ObservedPower.RUNNING || m.claimedAt().isEmpty()
                        || m.desiredPower() == DesiredPower.HIBERNATING || hasOrphanMarkChange(m.id())) {
                    continue;
                }
                Instant base = m.claimedAt().get();
                if (m.installedAt().isPresent() && m.installedAt().get().isAfter(base)) {
                    base = m.installedAt().get();
                }
                if (m.lastBecameRunningAt().isPresent() && m.lastBecameRunningAt().get().isAfter(base)) {
                    base = m.lastBecameRunningAt().get();
                }
                if (!now.isBefore(base.plus(after))) {
                    powerChanges.add(new PowerChange(m.id(), m.desiredPower(), DesiredPower.HIBERNATING,
                            "claimed and running since " + base + "; hibernateAfter " + after + " elapsed"));
                }
            }
        }

        /** One action per member per plan: a member whose orphan mark changes waits a pass for its power change. */
        private boolean hasOrphanMarkChange(String memberId) {
            for (OrphanMark mark : orphanMarks) {
                if (mark.memberId().equals(memberId)) {
                    return true;
                }
            }
            return false;
        }

        private void deleteMember(Member m, DeleteReason reason, String detail) {
            deletes.add(new Delete(m.id(), reason, detail));
            leaving.add(m);
            deletedNow.add(m);
            budget--;
        }

        /** Each claim still pending gets one reason: the member it will most likely get, or what stops one coming. */
        private List<PendingClaim> reasons(List<Claim> stillPending) {
            // Only as many members on their way as there are claims still waiting: the k-th claim looks at the k-th.
            List<Member> onTheirWay = new ArrayList<>(Math.min(stillPending.size(), eligible.size()));
            for (int i = 0; i < eligible.size() && onTheirWay.size() < stillPending.size(); i++) {
                Member m = eligible.get(i);
                if (!leaving.contains(m)) {
                    onTheirWay.add(m);
                }
            }
            List<PendingClaim> out = new ArrayList<>(stillPending.size());
            for (int k = 0; k < stillPending.size(); k++) {
                Claim claim = stillPending.get(k);
                out.add(new PendingClaim(claim.name(), claim.createdAt(), reason(k, onTheirWay)));
            }
            return out;
        }

        private ClaimReason reason(int k, List<Member> onTheirWay) {
            if (spec.deleted()) {
                return new ClaimReason.PoolDeleting();
            }
            // FIFO on both sides: the k-th waiting claim most likely gets the k-th member on its way (the oldest run
            // first, so they are ready first), then the members this pass creates.
            if (k < onTheirWay.size()) {
                Member m = onTheirWay.get(k);
                if (m.phase() == MemberPhase.PROVISIONING) {
                    return new ClaimReason.Provisioning(Optional.of(m.id()), m.createdAt(), typical.installedBy(m.createdAt()));
                }
                return switch (m.observedPower()) {
                    case RUNNING -> new ClaimReason.Assigning(m.id());
                    case RESUMING -> new ClaimReason.WaitingForResume(m.id(), m.observedPowerSince(),
                            typical.resumedBy(m.observedPowerSince()));
                    case HIBERNATING, HIBERNATING_IN_PROGRESS, UNKNOWN ->
                            new ClaimReason.WaitingForResume(m.id(), now, typical.resumedBy(now));
                };
            }
            int created = k - onTheirWay.size();
            if (created < creates.size()) {
                return new ClaimReason.Provisioning(Optional.empty(), now, typical.installedBy(now));
            }
            if (spec.maxSize().isPresent() && members.length + creates.size() >= spec.maxSize().getAsInt()) {
                return new ClaimReason.AtMaxSize(spec.maxSize().getAsInt(), members.length);
            }
            if (spec.maxConcurrent().isPresent() && budget <= 0) {
                int max = spec.maxConcurrent().getAsInt();
                return new ClaimReason.MaxConcurrentExhausted(max, (int) (max - budget));
            }
            if (!broken.isEmpty()) {
                return new ClaimReason.AllBroken(broken.size());
            }
            return new ClaimReason.Queued(k);
        }

        private PoolPlan.Status status(int unassignedPending) {
            int provisioning = 0;
            int standby = 0;
            int running = 0;
            int current = 0;
            int stale = 0;
            int unknown = 0;
            for (Member m : eligible) {
                if (m.phase() == MemberPhase.PROVISIONING) {
                    provisioning++;
                } else if (m.observedPower() == ObservedPower.RUNNING) {
                    running++;
                } else {
                    standby++;
                }
            }
            // Template currency as Hive counts it: over the unclaimed members after this pass's deletes and before
            // its assignments (a member assigned by this pass still counts; one it deletes does not).
            boolean anyDeleted = !deletedNow.isEmpty();
            String version = spec.templateVersion();
            for (List<Member> unclaimedMembers : List.of(broken, eligible)) {
                for (Member m : unclaimedMembers) {
                    if (anyDeleted && deletedNow.contains(m)) {
                        continue;
                    }
                    if (!m.isTemplateVersionKnown()) {
                        unknown++;
                    } else if (m.templateVersion().equals(version)) {
                        current++;
                    } else {
                        stale++;
                    }
                }
            }
            running -= assignments.size();
            int claimedCount = claimed.size() + released.size() + assignments.size();
            int unclaimed = provisioning + standby + running + broken.size();
            List<String> waitsFor = new ArrayList<>();
            if (spec.deleted()) {
                for (Member m : members) {
                    waitsFor.add(m.id());
                }
            }
            // Hive never evaluates AllClustersCurrent on the deletion path: it stays Unknown (empty).
            Optional<Boolean> allCurrent = spec.deleted() ? Optional.empty() : Optional.of(stale == 0 && unknown == 0);
            return new PoolPlan.Status(spec.size(), unclaimed, provisioning, standby, running, broken.size(),
                    claimedCount, deleting, unassignedPending, members.length, current, stale, unknown,
                    allCurrent, orphans.size(), emptyClaimRead, spec.deleted(), waitsFor);
        }

        private static Map<String, Claim> indexClaims(Claim[] claims) {
            Map<String, Claim> byName = new HashMap<>(Math.max(16, claims.length * 2));
            for (Claim claim : claims) {
                if (byName.put(claim.name(), claim) != null) {
                    throw new ValidationException(Problem.of("claims[].name", claim.name(), "two claims share this name"));
                }
            }
            return byName;
        }

        private static IdTable requireUniqueIds(Member[] members) {
            IdTable byId = new IdTable(members.length);
            for (Member m : members) {
                if (byId.put(m) != null) {
                    throw new ValidationException(Problem.of("members[].id", m.id(), "two members share this id"));
                }
            }
            return byId;
        }
    }

    /**
     * Members by id in one open-addressed array (linear probing, at most half full): a pool of 100k members costs
     * one array, not a map entry per member, on every pass.
     */
    private static final class IdTable {
        private final Member[] slots;
        private final int mask;
        private final int shift;

        IdTable(int expected) {
            int bits = 4;
            while ((1 << bits) < expected * 2) {
                bits++;
            }
            slots = new Member[1 << bits];
            mask = (1 << bits) - 1;
            shift = 32 - bits;
        }

        /** Adds {@code m}; returns the member already there under its id, if any (then nothing is added). */
        Member put(Member m) {
            String id = m.id();
            int i = slot(id.hashCode());
            for (Member at; (at = slots[i]) != null; i = (i + 1) & mask) {
                if (at.id().equals(id)) {
                    return at;
                }
            }
            slots[i] = m;
            return null;
        }

        Member get(String id) {
            int i = slot(id.hashCode());
            for (Member at; (at = slots[i]) != null; i = (i + 1) & mask) {
                if (at.id().equals(id)) {
                    return at;
                }
            }
            return null;
        }

        /** Fibonacci hashing: ids like "pool-1", "pool-2" have neighbouring hash codes, which linear probing clusters. */
        private int slot(int h) {
            return (h * 0x9E3779B9) >>> shift;
        }
    }

    /**
     * How long installs and resumes usually take in a pool, as a pool controller has observed them. The planner
     * uses them only to tell a waiting claim when its member is expected to be ready; they never change a decision.
     *
     * @param install typical time from creation to installed
     * @param resume  typical time from starting to resume to observed running
     */
    public record TypicalDurations(Optional<Duration> install, Optional<Duration> resume) {

        /** Nothing observed yet: no expected ready times. */
        public static final TypicalDurations UNKNOWN = new TypicalDurations(Optional.empty(), Optional.empty());

        /**
         * Checks that neither duration is negative.
         *
         * @param install typical time from creation to installed
         * @param resume typical time from starting to resume to observed running
         * @throws dev.hotspare.validation.ValidationException naming the negative one
         */
        public TypicalDurations {
            install = install == null ? Optional.empty() : install;
            resume = resume == null ? Optional.empty() : resume;
            Problems problems = new Problems();
            install.ifPresent(d -> problems.require(!d.isNegative(), "install", d, "must not be negative"));
            resume.ifPresent(d -> problems.require(!d.isNegative(), "resume", d, "must not be negative"));
            problems.throwIfAny();
        }

        /**
         * When a member that started installing at {@code since} is expected to be installed.
         *
         * @param since when it was created
         * @return {@code since + install}, or empty when no install was observed
         */
        public Optional<Instant> installedBy(Instant since) {
            return install.map(since::plus);
        }

        /**
         * When a member that started resuming at {@code since} is expected to run.
         *
         * @param since when the resume started
         * @return {@code since + resume}, or empty when no resume was observed
         */
        public Optional<Instant> resumedBy(Instant since) {
            return resume.map(since::plus);
        }
    }

    /**
     * The usual starting point for tuning {@code runningCount}: {@code round_up(claim frequency × install time)}.
     * {@code hotspare simulate} refines it against a real or Poisson claim trace.
     */
    public static final class Tuning {

        private Tuning() {
        }

        /**
         * @param claimsPerMinute average claim arrival rate
         * @param installTime     how long creating a member takes
         * @return the suggested runningCount
         */
        public static int suggestedRunningCount(double claimsPerMinute, Duration installTime) {
            if (claimsPerMinute < 0 || Double.isNaN(claimsPerMinute)) {
                throw new IllegalArgumentException("claimsPerMinute: bad value '" + claimsPerMinute + "': must be >= 0");
            }
            // Exact decimal arithmetic, so 1/15 × 40 does not become 2.6666…7 and round up wrongly at boundaries.
            BigDecimal minutes = BigDecimal.valueOf(installTime.toSeconds()).divide(BigDecimal.valueOf(60), 6, RoundingMode.HALF_UP);
            BigDecimal product = new BigDecimal(Double.toString(claimsPerMinute)).multiply(minutes).setScale(6, RoundingMode.HALF_UP);
            return product.setScale(0, RoundingMode.CEILING).intValueExact();
        }
    }
}
