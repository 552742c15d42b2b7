package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonIgnore;

import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Member.DesiredPower;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link PoolPlanner#plan} decided: a value, nothing has happened yet. Every action carries a short
 * reason so a user can see why. A runtime applies it in the order releases → assignments → power changes →
 * orphan marks → deletes → creates. {@code reasons} and {@code orphans} are reports, not actions.
 *
 * @param releases     claims whose time is up, whose member is gone, or whose release was interrupted
 * @param assignments  pending claims given a running member (FIFO)
 * @param powerChanges members whose desired power changes; only where it differs from what they have
 * @param orphanMarks  claimed members whose claim went missing (mark set) or came back (mark cleared)
 * @param deletes      members to delete
 * @param creates      members to create, each with its desired power already decided
 * @param reasons      every claim still pending after this plan, oldest first, with the one thing it waits for
 * @param orphans      every claimed member whose claim is missing, with since when and when it may be deleted
 * @param status       counts after classification, for status reporting
 */
public record PoolPlan(List<Release> releases, List<Assignment> assignments, List<PowerChange> powerChanges,
                       List<OrphanMark> orphanMarks, List<Delete> deletes, List<Create> creates,
                       List<PendingClaim> reasons, List<Orphan> orphans, Status status) {

    /**
     * Copies every list.
     *
     * @param releases claims whose time is up, whose member is gone, or whose release was interrupted
     * @param assignments pending claims given a running member (FIFO)
     * @param powerChanges members whose desired power changes; only where it differs from what they have
     * @param orphanMarks claimed members whose claim went missing (mark set) or came back (mark cleared)
     * @param deletes members to delete
     * @param creates members to create, each with its desired power already decided
     * @param reasons every claim still pending after this plan, oldest first, with the one thing it waits for
     * @param orphans every claimed member whose claim is missing, with since when and when it may be deleted
     * @param status counts after classification, for status reporting
     * @throws NullPointerException if a list or the status is null
     */
    public PoolPlan {
        releases = List.copyOf(releases);
        assignments = List.copyOf(assignments);
        powerChanges = List.copyOf(powerChanges);
        orphanMarks = List.copyOf(orphanMarks);
        deletes = List.copyOf(deletes);
        creates = List.copyOf(creates);
        reasons = List.copyOf(reasons);
        orphans = List.copyOf(orphans);
        Objects.requireNonNull(status, "status");
    }

    /**
     * Whether the plan asks for no change at all (the pool is at its fixpoint). Reports do not count.
     *
     * @return true when there is nothing to apply
     */
    @JsonIgnore
    public boolean isEmpty() {
        return releases.isEmpty() && assignments.isEmpty() && powerChanges.isEmpty() && orphanMarks.isEmpty()
                && deletes.isEmpty() && creates.isEmpty();
    }

    /**
     * Number of writes the plan needs (one per action).
     *
     * @return the count
     */
    @JsonIgnore
    public int writeCount() {
        return releases.size() + assignments.size() + powerChanges.size() + orphanMarks.size() + deletes.size()
                + creates.size();
    }

    /**
     * The current reason of pending claim {@code claimName}.
     *
     * @return its reason, or empty when it is not pending after this plan
     */
    public Optional<ClaimReason> reasonFor(String claimName) {
        return reasons.stream().filter(p -> p.claimName().equals(claimName)).map(PendingClaim::reason).findFirst();
    }

    /** Why a member is deleted. */
    public enum DeleteReason {
        /** Its claim's lifetime ran out (it is marked released in the same pass). */
        CLAIM_EXPIRED,
        /** It carries the release mark: its claim was released. */
        RELEASED,
        /** Its claim has been missing from the claim store for the whole orphan grace period. */
        CLAIM_GONE,
        /** Its claim record names another member: two writers raced and this member lost; nobody holds it. */
        CLAIM_HOLDS_ANOTHER,
        /** FAILED, or resuming for at least resumeTimeout while unclaimed and wanted running. */
        BROKEN,
        /** More unclaimed members than size + pending claims. */
        EXCESS,
        /** Built from another or an unknown template version; replaced one at a time when the pool is settled. */
        STALE_TEMPLATE,
        /** The pool is being deleted: unclaimed members go. */
        POOL_DELETED
    }

    /** Why a claim is released. */
    public enum ReleaseReason {
        /** Its effective lifetime passed since it was assigned; its member is marked released first. */
        LIFETIME_EXPIRED,
        /** Its member already carries the release mark: a release was interrupted and is finished now. */
        RELEASED,
        /** The member it was assigned is gone, or holds another claim. */
        MEMBER_GONE,
        /** It was still pending when its deadline came: it expired unserved (outcome {@link dev.hotspare.pool.Claim.ClaimOutcome#EXPIRED}). */
        DEADLINE_PASSED
    }

    /**
     * Create one member from {@code templateVersion}, asking for {@code power} in the same write.
     *
     * @param templateVersion the template
     * @param power           desired power at creation
     * @param reason          why
     */
    public record Create(String templateVersion, DesiredPower power, String reason) {
    }

    /**
     * Delete member {@code memberId}.
     *
     * @param memberId the member
     * @param reason   why, as a type
     * @param detail   why, for people
     */
    public record Delete(String memberId, DeleteReason reason, String detail) {
    }

    /**
     * Change a member's desired power.
     *
     * @param memberId the member
     * @param from     its desired power now
     * @param to       the new desired power
     * @param reason   why
     */
    public record PowerChange(String memberId, DesiredPower from, DesiredPower to, String reason) {
    }

    /**
     * Give claim {@code claimName} member {@code memberId}; {@code claimedAt} is stamped once and never changes.
     *
     * @param claimName the claim
     * @param memberId  the member, observed running
     * @param claimedAt the assignment time
     * @param reason    why
     */
    public record Assignment(String claimName, String memberId, Instant claimedAt, String reason) {
    }

    /**
     * End claim {@code claimName}. For {@link ReleaseReason#LIFETIME_EXPIRED} its member is marked released before
     * the claim ends; the member itself is deleted by a {@link Delete} (in this plan, or a later one when the
     * {@code maxConcurrent} budget is spent).
     *
     * @param claimName the claim
     * @param memberId  its member, if it has one
     * @param reason    why, as a type
     * @param detail    why, for people
     */
    public record Release(String claimName, Optional<String> memberId, ReleaseReason reason, String detail) {
    }

    /**
     * Record ({@code since} present) or clear (empty) the orphan mark on a claimed member.
     *
     * @param memberId  the member
     * @param claimName the claim it names
     * @param since     since when its claim is missing, or empty to clear the mark
     * @param reason    why
     */
    public record OrphanMark(String memberId, String claimName, Optional<Instant> since, String reason) {
    }

    /**
     * A claim still waiting after this plan, with its one current reason.
     *
     * @param claimName the claim
     * @param createdAt when it was made
     * @param reason    what it waits for
     */
    public record PendingClaim(String claimName, Instant createdAt, ClaimReason reason) {
    }

    /**
     * A claimed member whose claim is missing from the claim store.
     *
     * @param memberId     the member
     * @param claimName    the claim it names
     * @param since        since when the claim is missing (this pass's time when no mark was recorded yet)
     * @param deletableAt  when the orphan grace period ends and the member may be deleted
     */
    public record Orphan(String memberId, String claimName, Instant since, Instant deletableAt) {
    }

    /**
     * Counts at planning time (after this plan's assignments).
     *
     * @param size              the spec's target for unclaimed members
     * @param unclaimed         unclaimed members, broken included, deleting excluded
     * @param provisioning      unclaimed members still provisioning
     * @param standby           unclaimed READY members not observed running
     * @param running           unclaimed READY members observed running
     * @param broken            unclaimed broken members
     * @param claimed           members held by a claim (released ones waiting for deletion included)
     * @param deleting          members being deleted
     * @param pendingClaims     claims still waiting for a member
     * @param total             all members
     * @param current           unclaimed members on the pool's template version, counted as Hive does: after this
     *                          plan's deletes and before its assignments
     * @param stale             unclaimed members on another recorded template version (counted the same way)
     * @param unknown           unclaimed members with no recorded template version (counted the same way)
     * @param allCurrent        whether every unclaimed member is current (Hive's {@code AllClustersCurrent}); empty
     *                          (Hive's Unknown) for a pool being deleted, where Hive never evaluates it
     * @param orphaned          claimed members whose claim is missing
     * @param emptyClaimRead    the claim store listed no live claim while members were claimed: this pass deleted no
     *                          orphaned member and changed no orphan mark
     * @param poolDeleted       the pool is being deleted
     * @param deletionWaitsFor  while deleting: every member still there, in total order (empty once the pool is gone,
     *                          and for a live pool)
     */
    public record Status(int size, int unclaimed, int provisioning, int standby, int running, int broken, int claimed,
                         int deleting, int pendingClaims, int total, int current, int stale, int unknown,
                         Optional<Boolean> allCurrent, int orphaned, boolean emptyClaimRead, boolean poolDeleted,
                         List<String> deletionWaitsFor) {

        /**
         * Copies the list.
         *
         * @param size the spec's target for unclaimed members
         * @param unclaimed unclaimed members, broken included, deleting excluded
         * @param provisioning unclaimed members still provisioning
         * @param standby unclaimed READY members not observed running
         * @param running unclaimed READY members observed running
         * @param broken unclaimed broken members
         * @param claimed members held by a claim (released ones waiting for deletion included)
         * @param deleting members being deleted
         * @param pendingClaims claims still waiting for a member
         * @param total all members
         * @param current unclaimed members on the pool's template version
         * @param stale unclaimed members on another recorded template version
         * @param unknown unclaimed members with no recorded template version
         * @param allCurrent whether every unclaimed member is current (Hive's {@code AllClustersCurrent}); empty for a
         *         pool being deleted
         * @param orphaned claimed members whose claim is missing
         * @param emptyClaimRead the claim store listed no live claim while members were claimed: this pass deleted no
         * @param poolDeleted the pool is being deleted
         * @param deletionWaitsFor while deleting: every member still there, in total order (empty once the pool is gone,
         * @throws NullPointerException if it is null
         */
        public Status {
            deletionWaitsFor = List.copyOf(deletionWaitsFor);
            allCurrent = allCurrent == null ? Optional.empty() : allCurrent;
        }
    }

    /** A change in the number of members or rooms, as reported by the {@code scaled} call of the pool and fleet listeners. */
    public enum ScaleOperation {
        /** A pool controller created members (its plan's creates: refill, replacement, template change). */
        CREATE,
        /**
         * Members or rooms deleted for a reason other than a scale-down decision: a pool controller's plan (released
         * claims, excess, failures, outdated templates) or a fleet watcher's removal of dead rooms.
         */
        DELETE,
        /** A fleet scheduler created rooms: autoscaler, min rooms of a new scheduler, or the scale-up operation. */
        SCALE_UP,
        /** A fleet scheduler removed rooms: autoscaler or the scale-down operation. */
        SCALE_DOWN;

        /** Lower-case name with dashes, as used in metric tags ({@code scale-up}). */
        public String tag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
