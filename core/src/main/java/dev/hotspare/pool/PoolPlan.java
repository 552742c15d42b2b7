package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What {@link PoolPlanner#plan} decided: a value, nothing has happened yet. Every action carries a short
 * reason so a user can see why. A runtime applies it in the order releases → assignments → power changes
 * → deletes → creates.
 *
 * @param releases     claims whose time is up or whose member is gone
 * @param assignments  pending claims given a running member (FIFO)
 * @param powerChanges members whose desired power changes; only where it differs from what they have
 * @param deletes      members to delete
 * @param creates      members to create, each with its desired power already decided
 * @param status       counts after classification, for status reporting
 */
public record PoolPlan(List<Release> releases, List<Assignment> assignments, List<PowerChange> powerChanges,
                       List<Delete> deletes, List<Create> creates, Status status) {

    public PoolPlan {
        releases = List.copyOf(releases);
        assignments = List.copyOf(assignments);
        powerChanges = List.copyOf(powerChanges);
        deletes = List.copyOf(deletes);
        creates = List.copyOf(creates);
    }

    /** Whether the plan asks for no change at all (the pool is at its fixpoint). */
    @JsonIgnore
    public boolean isEmpty() {
        return releases.isEmpty() && assignments.isEmpty() && powerChanges.isEmpty() && deletes.isEmpty()
                && creates.isEmpty();
    }

    /** Number of writes the plan needs (one per action). */
    @JsonIgnore
    public int writeCount() {
        return releases.size() + assignments.size() + powerChanges.size() + deletes.size() + creates.size();
    }

    /** Why a member is deleted. */
    public enum DeleteReason {
        /** Its claim's lifetime ran out. */
        CLAIM_EXPIRED,
        /** Its claim no longer exists (released by the claimer). */
        CLAIM_GONE,
        /** FAILED, or stuck resuming past resumeTimeout while unclaimed. */
        BROKEN,
        /** More unclaimed members than size + pending claims. */
        EXCESS,
        /** Built from an older template version; replaced one at a time when the pool is otherwise settled. */
        STALE_TEMPLATE
    }

    /** Why a claim is released. */
    public enum ReleaseReason {
        /** Its effective lifetime passed since it was assigned. */
        LIFETIME_EXPIRED,
        /** The member it was assigned is gone. */
        MEMBER_GONE
    }

    /** Create one member from {@code templateVersion}, asking for {@code power} in the same write. */
    public record Create(String templateVersion, DesiredPower power, String reason) {
    }

    /** Delete member {@code memberId}. */
    public record Delete(String memberId, DeleteReason reason, String detail) {
    }

    /** Change a member's desired power. */
    public record PowerChange(String memberId, DesiredPower from, DesiredPower to, String reason) {
    }

    /** Give claim {@code claimName} member {@code memberId}; {@code claimedAt} is stamped once and never changes. */
    public record Assignment(String claimName, String memberId, Instant claimedAt, String reason) {
    }

    /** End claim {@code claimName}; its member, if any, is deleted by a {@link Delete} in the same plan. */
    public record Release(String claimName, Optional<String> memberId, ReleaseReason reason, String detail) {
    }

    /**
     * Counts at planning time (after this plan's assignments).
     *
     * @param size          the spec's target for unclaimed members
     * @param unclaimed     unclaimed members, broken included, deleting excluded
     * @param provisioning  unclaimed members still provisioning
     * @param standby       unclaimed READY members not observed running
     * @param running       unclaimed READY members observed running
     * @param broken        unclaimed broken members
     * @param claimed       members held by a claim
     * @param deleting      members being deleted
     * @param pendingClaims claims still waiting for a member
     * @param total         all members
     */
    public record Status(int size, int unclaimed, int provisioning, int standby, int running, int broken, int claimed,
                         int deleting, int pendingClaims, int total) {
    }
}
