package dev.hotspare.pool;

import dev.hotspare.pool.PoolPlan.Assignment;
import dev.hotspare.pool.PoolPlan.Create;
import dev.hotspare.pool.PoolPlan.Delete;
import dev.hotspare.pool.PoolPlan.DeleteReason;
import dev.hotspare.pool.PoolPlan.PowerChange;
import dev.hotspare.pool.PoolPlan.Release;
import dev.hotspare.pool.PoolPlan.ReleaseReason;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides what a pool should do next: the Hive ClusterPool algorithm with {@code runningCount} hot spares,
 * FIFO claim assignment and {@code hibernateAfter} for claimed members, in one pure pass.
 *
 * <p>Pure: it reads only its arguments (never the clock, never I/O) and never mutates them. Members are
 * ordered by (createdAt, id) and claims by (createdAt, name) everywhere — power planning, assignment and
 * deletion use the same order, so the pool cannot thrash between two notions of "oldest" (HIVE-1747).
 * The rules are documented step by step in {@code docs/pools.md}.
 */
public final class PoolPlanner {

    private PoolPlanner() {
    }

    /**
     * Plans the next step of pool {@code spec} given what is observed.
     *
     * @param spec    the desired pool
     * @param members every member of the pool, in any order
     * @param claims  every live claim of the pool (pending or assigned), in any order
     * @param now     the decision time
     * @return the plan; empty when the pool is at its fixpoint
     * @throws ValidationException when two members share an id or two claims share a name
     */
    public static PoolPlan plan(PoolSpec spec, Collection<Member> members, Collection<Claim> claims, Instant now) {
        Member[] ordered = members.toArray(new Member[0]);
        Arrays.sort(ordered, Member.TOTAL_ORDER);
        Claim[] orderedClaims = claims.toArray(new Claim[0]);
        Arrays.sort(orderedClaims, Claim.TOTAL_ORDER);
        return new Pass(spec, ordered, orderedClaims, now).run();
    }

    /** One planning pass; holds the working state so each step stays a short method. */
    private static final class Pass {
        private final PoolSpec spec;
        private final Member[] members;
        private final Claim[] claims;
        private final Instant now;

        private final Map<String, Claim> claimByName;
        private final Set<String> heldClaims = new HashSet<>();

        // Unclaimed, not deleting, in total order. `eligible` = provisioning + standby + running.
        private final List<Member> eligible = new ArrayList<>();
        private final List<Member> broken = new ArrayList<>();
        private final List<Member> claimed = new ArrayList<>();
        private final Set<String> leaving = new HashSet<>();
        private int provisioningPhase;
        private int deleting;

        private final List<Release> releases = new ArrayList<>();
        private final List<Assignment> assignments = new ArrayList<>();
        private final List<PowerChange> powerChanges = new ArrayList<>();
        private final List<Delete> deletes = new ArrayList<>();
        private final List<Create> creates = new ArrayList<>();
        private long budget;

        Pass(PoolSpec spec, Member[] members, Claim[] claims, Instant now) {
            this.spec = spec;
            this.members = members;
            this.claims = claims;
            this.now = now;
            this.claimByName = indexClaims(claims);
            requireUniqueIds(members);
        }

        PoolPlan run() {
            classify();
            budget = spec.maxConcurrent().isPresent()
                    ? (long) spec.maxConcurrent().getAsInt() - provisioningPhase - deleting
                    : Long.MAX_VALUE;
            releaseExpiredAndOrphaned();
            List<Claim> pending = pendingClaims();
            int assigned = assignFifo(pending);
            int unassignedPending = pending.size() - assigned;
            sizeTheUnclaimed(unassignedPending);
            planPower(unassignedPending);
            hibernateClaimed();
            return new PoolPlan(releases, assignments, powerChanges, deletes, creates, status(unassignedPending));
        }

        private void classify() {
            for (Member m : members) {
                if (m.phase() == MemberPhase.DELETING) {
                    deleting++;
                    m.claimName().ifPresent(heldClaims::add);
                    continue;
                }
                if (m.phase() == MemberPhase.PROVISIONING) {
                    provisioningPhase++;
                }
                if (m.isClaimed()) {
                    heldClaims.add(m.claimName().get());
                    claimed.add(m);
                } else if (isBroken(m)) {
                    broken.add(m);
                } else {
                    eligible.add(m);
                }
            }
        }

        private boolean isBroken(Member m) {
            if (m.phase() == MemberPhase.FAILED) {
                return true;
            }
            return m.observedPower() == ObservedPower.RESUMING && spec.resumeTimeout().isPresent()
                    && Duration.between(m.observedPowerSince(), now).compareTo(spec.resumeTimeout().get()) > 0;
        }

        /** Step 2: claims past their lifetime and members whose claim is gone; their deletes come first in the budget. */
        private void releaseExpiredAndOrphaned() {
            for (Member m : claimed) {
                String claimName = m.claimName().get();
                Claim claim = claimByName.get(claimName);
                if (claim == null) {
                    if (budget > 0) {
                        deleteMember(m, DeleteReason.CLAIM_GONE, "claim '" + claimName + "' no longer exists");
                    }
                    continue;
                }
                if (claim.assignedMember().isPresent() && !claim.assignedMember().get().equals(m.id())) {
                    // Two writers raced: the claim record names another member. That one is the claim's;
                    // this member is nobody's and, having been handed out, is never reused.
                    if (budget > 0) {
                        deleteMember(m, DeleteReason.CLAIM_GONE, "claim '" + claimName + "' holds member '"
                                + claim.assignedMember().get() + "', not this one");
                    }
                    continue;
                }
                Optional<Duration> lifetime = spec.claimLifetime().effective(claim.lifetime());
                Optional<Instant> start = claim.assignedAt().or(m::claimedAt);
                if (lifetime.isPresent() && start.isPresent() && !now.isBefore(start.get().plus(lifetime.get()))
                        && budget > 0) {
                    String detail = "lifetime " + lifetime.get() + " since " + start.get() + " has passed";
                    releases.add(new Release(claimName, Optional.of(m.id()), ReleaseReason.LIFETIME_EXPIRED, detail));
                    deleteMember(m, DeleteReason.CLAIM_EXPIRED, detail);
                }
            }
            for (Claim claim : claims) {
                if (claim.assignedMember().isPresent() && !heldClaims.contains(claim.name())) {
                    releases.add(new Release(claim.name(), claim.assignedMember(), ReleaseReason.MEMBER_GONE,
                            "member '" + claim.assignedMember().get() + "' no longer holds it"));
                }
            }
        }

        private List<Claim> pendingClaims() {
            List<Claim> pending = new ArrayList<>();
            for (Claim claim : claims) {
                if (claim.assignedMember().isEmpty() && !heldClaims.contains(claim.name())) {
                    pending.add(claim);
                }
            }
            return pending;
        }

        /** Step 3: the oldest pending claims get the oldest running members, pairwise. */
        private int assignFifo(List<Claim> pending) {
            int next = 0;
            for (int i = 0; i < eligible.size() && next < pending.size(); i++) {
                Member m = eligible.get(i);
                if (m.phase() == MemberPhase.READY && m.observedPower() == ObservedPower.RUNNING) {
                    Claim claim = pending.get(next++);
                    assignments.add(new Assignment(claim.name(), m.id(), now,
                            "oldest pending claim gets the oldest running member"));
                    leaving.add(m.id());
                }
            }
            return next;
        }

        /** Step 5: keep size + pending claims unclaimed members, within maxSize and maxConcurrent. */
        private void sizeTheUnclaimed(int unassignedPending) {
            int provisioning = 0;
            List<Member> standby = new ArrayList<>();
            List<Member> running = new ArrayList<>();
            List<Member> provisioningMembers = new ArrayList<>();
            for (Member m : eligible) {
                if (leaving.contains(m.id())) {
                    continue;
                }
                if (m.phase() == MemberPhase.PROVISIONING) {
                    provisioning++;
                    provisioningMembers.add(m);
                } else if (m.observedPower() == ObservedPower.RUNNING) {
                    running.add(m);
                } else {
                    standby.add(m);
                }
            }
            long unclaimed = (long) provisioning + standby.size() + running.size() + broken.size();
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
                    deleteMember(m, DeleteReason.BROKEN, m.phase() == MemberPhase.FAILED
                            ? "failed" : "resuming since " + m.observedPowerSince() + ", past resumeTimeout " + spec.resumeTimeout().orElseThrow());
                }
                return;
            }
            if (drift > 0) {
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
                for (Member m : eligible) {
                    if (!leaving.contains(m.id()) && !m.templateVersion().equals(spec.templateVersion())) {
                        deleteMember(m, DeleteReason.STALE_TEMPLATE, "template " + m.templateVersion()
                                + " is not the pool's " + spec.templateVersion() + "; replacing one at a time");
                        return;
                    }
                }
            }
        }

        /** Step 4: the oldest runningCount + pending eligible members run, the rest hibernate; new members included. */
        private void planPower(int unassignedPending) {
            long slots = (long) spec.runningCount() + unassignedPending;
            long slot = 0;
            for (Member m : eligible) {
                if (leaving.contains(m.id())) {
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
                if (leaving.contains(m.id()) || m.observedPower() != ObservedPower.RUNNING || m.claimedAt().isEmpty()
                        || m.desiredPower() == DesiredPower.HIBERNATING) {
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

        private void deleteMember(Member m, DeleteReason reason, String detail) {
            deletes.add(new Delete(m.id(), reason, detail));
            leaving.add(m.id());
            budget--;
        }

        private PoolPlan.Status status(int unassignedPending) {
            int provisioning = 0;
            int standby = 0;
            int running = 0;
            for (Member m : eligible) {
                if (m.phase() == MemberPhase.PROVISIONING) {
                    provisioning++;
                } else if (m.observedPower() == ObservedPower.RUNNING) {
                    running++;
                } else {
                    standby++;
                }
            }
            running -= assignments.size();
            int claimedCount = claimed.size() + assignments.size();
            int unclaimed = provisioning + standby + running + broken.size();
            return new PoolPlan.Status(spec.size(), unclaimed, provisioning, standby, running, broken.size(),
                    claimedCount, deleting, unassignedPending, members.length);
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

        private static void requireUniqueIds(Member[] members) {
            Set<String> ids = new HashSet<>(Math.max(16, members.length * 2));
            for (Member m : members) {
                if (!ids.add(m.id())) {
                    throw new ValidationException(Problem.of("members[].id", m.id(), "two members share this id"));
                }
            }
        }
    }
}
