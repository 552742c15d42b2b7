package dev.hotspare.pool.internal;

import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.PoolPlan;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.hotspare.pool.internal.Records.NOW;
import static org.assertj.core.api.Assertions.assertThat;

class PlanOverridesTest {

    private final PoolPlan.Status status = new PoolPlan.Status(1, 2, 0, 0, 2, 0, 1, 0, 1, 3, 2, 0, 0, Optional.of(true),
            1, false, false, List.of());
    private final PoolPlan.Assignment assignJob = new PoolPlan.Assignment("job", "m-1", NOW, "oldest running");
    private final PoolPlan.Assignment assignNext = new PoolPlan.Assignment("next", "m-2", NOW, "oldest running");
    private final PoolPlan.PowerChange hibernate = new PoolPlan.PowerChange("m-3", DesiredPower.RUNNING, DesiredPower.HIBERNATING, "spare");
    private final PoolPlan.Delete excess = new PoolPlan.Delete("m-3", PoolPlan.DeleteReason.EXCESS, "excess");
    private final PoolPlan.Delete orphan = new PoolPlan.Delete("m-4", PoolPlan.DeleteReason.CLAIM_GONE, "gone");
    private final PoolPlan.Delete expired = new PoolPlan.Delete("m-5", PoolPlan.DeleteReason.CLAIM_EXPIRED, "expired");
    private final PoolPlan.PendingClaim waits = new PoolPlan.PendingClaim("late", NOW, new ClaimReason.Queued(0));
    private final PoolPlan.Release release = new PoolPlan.Release("late", Optional.empty(), PoolPlan.ReleaseReason.DEADLINE_PASSED, "deadline");
    private final PoolPlan.Orphan orphanReport = new PoolPlan.Orphan("m-4", "old", NOW.minus(Duration.ofHours(1)), NOW);
    private final PoolPlan plan = new PoolPlan(List.of(release), List.of(assignJob, assignNext), List.of(hibernate), List.of(),
            List.of(excess, orphan, expired), List.of(), List.of(waits), List.of(orphanReport), status);

    @Test
    void whatTheFastPathHandedOutSinceTheReadIsKeptOutOfThePlan() {
        // The fast path gave m-3 to "late" while the pass planned: m-3 is neither hibernated nor deleted, "late"
        // neither released nor reported waiting, and the claim it also planned for m-1 ("job") keeps its assignment.
        PoolPlan kept = PlanOverrides.keep(plan, Set.of("late", "next"), Set.of("m-3"));

        assertThat(kept.assignments()).containsExactly(assignJob);
        assertThat(kept.powerChanges()).isEmpty();
        assertThat(kept.deletes()).containsExactly(orphan, expired);
        assertThat(kept.releases()).isEmpty();
        assertThat(kept.reasons()).isEmpty();
        assertThat(kept.orphans()).containsExactly(orphanReport);
    }

    @Test
    void onlyOrphansWhoseReleaseMarkIsNotInDoubtAreLookedUp() {
        assertThat(PlanOverrides.lookupsBeforeDelete(plan, Set.of())).isEqualTo(Map.of("m-4", "old"));
        assertThat(PlanOverrides.lookupsBeforeDelete(plan, Set.of("m-4"))).isEmpty();
    }
}
