package dev.hotspare.pool;

import dev.hotspare.pool.PoolPlan.Delete;
import dev.hotspare.pool.PoolPlan.DeleteReason;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The runtime's overrides of a plan's deletes, decided by the pure planner from what applying the plan found. */
class ConfirmedDeletesTest {

    private static PoolPlan planDeleting(List<Delete> deletes) {
        PoolPlan.Status status = PoolPlanner.plan(PoolSpec.builder("p").size(0).build(), List.of(), List.of(),
                Instant.parse("2026-01-01T00:00:00Z")).status();
        return new PoolPlan(List.of(), List.of(), List.of(), List.of(), deletes, List.of(), List.of(), List.of(), status);
    }

    @Test
    void aMemberWhoseReleaseMarkFailedAndAnOrphanWhoseClaimIsLiveAgainAreKept() {
        Delete expired = new Delete("m-1", DeleteReason.CLAIM_EXPIRED, "lifetime");
        Delete gone = new Delete("m-2", DeleteReason.CLAIM_GONE, "missing");
        Delete goneForGood = new Delete("m-3", DeleteReason.CLAIM_GONE, "missing");
        Delete released = new Delete("m-4", DeleteReason.RELEASED, "released");
        PoolPlan plan = planDeleting(List.of(expired, gone, goneForGood, released));

        assertThat(PoolPlanner.confirmedDeletes(plan, Set.of("m-1"), Set.of("m-2"))).containsExactly(goneForGood, released);
        assertThat(PoolPlanner.confirmedDeletes(plan, Set.of(), Set.of())).containsExactly(expired, gone, goneForGood, released);
    }

    @Test
    void aLiveAgainMarkKeepsOnlyAnOrphanNotAMemberDeletedForAnotherReason() {
        Delete released = new Delete("m-4", DeleteReason.RELEASED, "released");
        assertThat(PoolPlanner.confirmedDeletes(planDeleting(List.of(released)), Set.of(), Set.of("m-4"))).containsExactly(released);
    }
}
