package dev.hotspare.pool.internal;

import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolPlanner;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

import static dev.hotspare.pool.internal.Records.NOW;
import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plan overrides over random plans: what the fast path handed out since the read is kept (never assigned,
 * powered, marked, deleted or released by the plan), everything else stays in order, keeping twice changes nothing;
 * an orphan is deleted only after its lookup, and a member whose release mark failed is never deleted.
 */
class PlanOverridesProperties {

    @Property(tries = 300)
    void keptMembersAndClaimsAreLeftAloneAndTheRestStays() {
        forAll(Gen.longs()).check(seed -> {
            Random random = new Random(seed);
            PoolPlan plan = randomPlan(random);
            Set<String> claims = some(random, "c");
            Set<String> members = some(random, "m");
            PoolPlan kept = PlanOverrides.keep(plan, claims, members);
            String why = "seed " + seed + ", kept claims " + claims + ", members " + members + ", plan " + plan;

            assertThat(kept.assignments()).as(why).noneMatch(a -> claims.contains(a.claimName()) || members.contains(a.memberId()));
            assertThat(kept.powerChanges()).as("a kept member is never hibernated (nor powered): %s", why)
                    .noneMatch(c -> members.contains(c.memberId()));
            assertThat(kept.deletes()).as("a kept member is never deleted: %s", why).noneMatch(d -> members.contains(d.memberId()));
            assertThat(kept.orphanMarks()).as(why).noneMatch(o -> members.contains(o.memberId()));
            assertThat(kept.releases()).as(why).noneMatch(r -> claims.contains(r.claimName()));
            assertThat(kept.reasons()).as(why).noneMatch(r -> claims.contains(r.claimName()));

            assertThat(kept.deletes()).as(why).isEqualTo(only(plan.deletes(), d -> !members.contains(d.memberId())));
            assertThat(kept.powerChanges()).as(why).isEqualTo(only(plan.powerChanges(), c -> !members.contains(c.memberId())));
            assertThat(kept.releases()).as(why).isEqualTo(only(plan.releases(), r -> !claims.contains(r.claimName())));
            assertThat(kept.assignments()).as(why).isEqualTo(only(plan.assignments(),
                    a -> !claims.contains(a.claimName()) && !members.contains(a.memberId())));
            assertThat(kept.creates()).as(why).isEqualTo(plan.creates());
            assertThat(kept.orphans()).as(why).isEqualTo(plan.orphans());
            assertThat(kept.status()).as(why).isEqualTo(plan.status());
            assertThat(PlanOverrides.keep(kept, claims, members)).as("keeping twice changes nothing: %s", why).isEqualTo(kept);
            assertThat(PlanOverrides.keep(plan, Set.of(), Set.of())).as(why).isEqualTo(plan);
        });
    }

    @Property(tries = 300)
    void anOrphanIsDeletedOnlyAfterItsLookupAndAnUnmarkedMemberNever() {
        forAll(Gen.longs()).check(seed -> {
            Random random = new Random(seed);
            PoolPlan plan = randomPlan(random);
            Set<String> unmarked = some(random, "m");
            Map<String, String> lookups = PlanOverrides.lookupsBeforeDelete(plan, unmarked);
            Set<String> liveAgain = new HashSet<>();
            lookups.keySet().forEach(m -> {
                if (random.nextBoolean()) {
                    liveAgain.add(m);
                }
            });
            List<PoolPlan.Delete> deletes = PoolPlanner.confirmedDeletes(plan, unmarked, liveAgain);
            String why = "seed " + seed + ", unmarked " + unmarked + ", live again " + liveAgain + ", plan " + plan;

            for (PoolPlan.Delete d : plan.deletes()) {
                boolean orphan = d.reason() == PoolPlan.DeleteReason.CLAIM_GONE;
                assertThat(lookups.containsKey(d.memberId())).as("looked up: %s, %s", d, why)
                        .isEqualTo(orphan && !unmarked.contains(d.memberId()));
                boolean expected = !unmarked.contains(d.memberId()) && !(orphan && liveAgain.contains(d.memberId()));
                assertThat(deletes.contains(d)).as("deleted: %s, %s", d, why).isEqualTo(expected);
            }
            assertThat(deletes).as(why).isEqualTo(only(plan.deletes(), deletes::contains));
        });
    }

    private static <T> List<T> only(List<T> list, Predicate<T> keep) {
        return list.stream().filter(keep).toList();
    }

    private static Set<String> some(Random random, String prefix) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i < 6; i++) {
            if (random.nextInt(3) == 0) {
                out.add(prefix + i);
            }
        }
        return out;
    }

    /** A plan naming members m0..m5 and claims c0..c5 in every kind of action; not a plan a planner would make. */
    static PoolPlan randomPlan(Random random) {
        List<PoolPlan.Release> releases = new ArrayList<>();
        List<PoolPlan.Assignment> assignments = new ArrayList<>();
        List<PoolPlan.PowerChange> power = new ArrayList<>();
        List<PoolPlan.OrphanMark> marks = new ArrayList<>();
        List<PoolPlan.Delete> deletes = new ArrayList<>();
        List<PoolPlan.Create> creates = new ArrayList<>();
        List<PoolPlan.PendingClaim> reasons = new ArrayList<>();
        List<PoolPlan.Orphan> orphans = new ArrayList<>();
        PoolPlan.ReleaseReason[] releaseReasons = PoolPlan.ReleaseReason.values();
        PoolPlan.DeleteReason[] deleteReasons = PoolPlan.DeleteReason.values();
        for (int i = 0; i < 6; i++) {
            String m = "m" + i;
            String c = "c" + i;
            switch (random.nextInt(5)) {
                case 0 -> assignments.add(new PoolPlan.Assignment("c" + random.nextInt(6), m, NOW, "serve"));
                case 1 -> power.add(new PoolPlan.PowerChange(m, DesiredPower.RUNNING, DesiredPower.HIBERNATING, "spare"));
                case 2 -> {
                    PoolPlan.DeleteReason reason = deleteReasons[random.nextInt(deleteReasons.length)];
                    deletes.add(new PoolPlan.Delete(m, reason, reason.name()));
                    if (reason == PoolPlan.DeleteReason.CLAIM_GONE) {
                        orphans.add(new PoolPlan.Orphan(m, c, NOW.minus(Duration.ofHours(1)), NOW));
                        marks.add(new PoolPlan.OrphanMark(m, c, Optional.of(NOW), "gone"));
                    }
                }
                case 3 -> power.add(new PoolPlan.PowerChange(m, DesiredPower.HIBERNATING, DesiredPower.RUNNING, "wanted"));
                default -> {
                }
            }
            switch (random.nextInt(3)) {
                case 0 -> releases.add(new PoolPlan.Release(c, Optional.of(m),
                        releaseReasons[random.nextInt(releaseReasons.length)], "ends"));
                case 1 -> reasons.add(new PoolPlan.PendingClaim(c, NOW, new ClaimReason.Queued(i)));
                default -> {
                }
            }
        }
        if (random.nextBoolean()) {
            creates.add(new PoolPlan.Create("v1", DesiredPower.RUNNING, "refill"));
        }
        PoolPlan.Status status = new PoolPlan.Status(1, 2, 0, 0, 2, 0, 1, 0, reasons.size(), 3, 2, 0, 0, Optional.of(true),
                orphans.size(), false, false, List.of());
        return new PoolPlan(releases, assignments, power, marks, deletes, creates, reasons, orphans, status);
    }
}
