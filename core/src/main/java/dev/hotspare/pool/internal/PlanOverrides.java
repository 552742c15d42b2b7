package dev.hotspare.pool.internal;

import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The corrections a pool controller makes to {@link PoolPlanner#plan}'s plan once it knows what happened since its
 * read, decided here so they stay pure and tested with the planner: what the fast path handed out while the pass read
 * and planned is kept out of the plan ({@link #keep}); a member whose claim was missing from the read is deleted only
 * after a lookup of that claim ({@link #lookupsBeforeDelete}) confirmed it gone, and a member whose release mark could
 * not be written is not deleted at all ({@link PoolPlanner#confirmedDeletes}).
 */
public final class PlanOverrides {

    private PlanOverrides() {
    }

    /**
     * {@code plan} without what concerns claims or members the fast path handed out after the pass's read: no
     * release or reason for those claims, and no assignment, power change, orphan mark or delete of those members
     * (nor an assignment of those claims). Creates and the status stay.
     *
     * @param claimNames claims served since the read
     * @param memberIds  members handed out since the read: kept as they are by this plan
     */
    public static PoolPlan keep(PoolPlan plan, Set<String> claimNames, Set<String> memberIds) {
        if (claimNames.isEmpty() && memberIds.isEmpty()) {
            return plan;
        }
        return new PoolPlan(
                plan.releases().stream().filter(r -> !claimNames.contains(r.claimName())).toList(),
                plan.assignments().stream().filter(a -> !claimNames.contains(a.claimName()) && !memberIds.contains(a.memberId())).toList(),
                plan.powerChanges().stream().filter(c -> !memberIds.contains(c.memberId())).toList(),
                plan.orphanMarks().stream().filter(o -> !memberIds.contains(o.memberId())).toList(),
                plan.deletes().stream().filter(d -> !memberIds.contains(d.memberId())).toList(),
                plan.creates(),
                plan.reasons().stream().filter(r -> !claimNames.contains(r.claimName())).toList(),
                plan.orphans(),
                plan.status());
    }

    /**
     * The deletes of orphaned members ({@link PoolPlan.DeleteReason#CLAIM_GONE}) that need a lookup of their claim by
     * name before they are carried out, in plan order: member id → the claim it names. A member whose release mark
     * could not be written is left out: it is not deleted anyway.
     *
     * @param unmarked ids of members whose release mark could not be written
     */
    public static Map<String, String> lookupsBeforeDelete(PoolPlan plan, Set<String> unmarked) {
        Map<String, String> orphanClaims = new LinkedHashMap<>();
        plan.orphans().forEach(o -> orphanClaims.put(o.memberId(), o.claimName()));
        Map<String, String> out = new LinkedHashMap<>();
        for (PoolPlan.Delete delete : plan.deletes()) {
            if (delete.reason() == PoolPlan.DeleteReason.CLAIM_GONE && !unmarked.contains(delete.memberId())) {
                out.put(delete.memberId(), orphanClaims.get(delete.memberId()));
            }
        }
        return out;
    }
}
