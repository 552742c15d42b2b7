package dev.hotspare.pool;

import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.PoolPlan.ReleaseReason;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static dev.hotspare.pool.PoolPlannerTest.at;
import static dev.hotspare.pool.PoolPlannerTest.running;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Claim classes, aging and deadlines in the pure planner: exact orders. */
class ClaimClassesPlannerTest {

    static final ClaimClass BATCH = new ClaimClass("batch", 0);
    static final ClaimClass INTERACTIVE = new ClaimClass("interactive", 10);
    static final ClaimClass URGENT = new ClaimClass("urgent", 20);

    static Claim claim(String name, int createdMinute, ClaimClass claimClass) {
        return Claim.pending(name, at(createdMinute), Optional.empty()).withClass(claimClass);
    }

    static List<String> assigned(PoolPlan plan) {
        return plan.assignments().stream().map(a -> a.claimName() + "=" + a.memberId()).toList();
    }

    static PoolSpec spec(Duration agingLimit) {
        return PoolSpec.builder("ci-pool").size(0).runningCount(0).agingLimit(agingLimit).build();
    }

    @Test
    void higherClassesGoFirstAndFifoHoldsWithinAClass() {
        List<Claim> claims = List.of(claim("b1", 0, BATCH), claim("i1", 1, INTERACTIVE), claim("b2", 2, BATCH),
                claim("u1", 3, URGENT), claim("i2", 4, INTERACTIVE));
        PoolPlan plan = PoolPlanner.plan(spec(Duration.ofHours(1)), List.of(running("m-a", 0), running("m-b", 1),
                running("m-c", 2)), claims, at(5));
        assertThat(assigned(plan)).containsExactly("u1=m-a", "i1=m-b", "i2=m-c");
        assertThat(plan.reasons()).extracting(PoolPlan.PendingClaim::claimName).containsExactly("b1", "b2");
    }

    @Test
    void aClaimThatHasWaitedTheAgingLimitGoesBeforeEveryYoungerClaim() {
        List<Claim> claims = List.of(claim("b1", 0, BATCH), claim("b2", 5, BATCH), claim("u1", 8, URGENT),
                claim("i1", 9, INTERACTIVE));
        PoolSpec spec = spec(Duration.ofMinutes(10));
        // At minute 9 nobody is aged: classes decide.
        assertThat(assigned(PoolPlanner.plan(spec, List.of(running("m-a", 0)), claims, at(9)))).containsExactly("u1=m-a");
        // At minute 10 b1 has waited the aging limit: it goes before the younger urgent claim.
        assertThat(assigned(PoolPlanner.plan(spec, List.of(running("m-a", 0), running("m-b", 1)), claims, at(10))))
                .containsExactly("b1=m-a", "u1=m-b");
        // At minute 15 b1 and b2 are aged: both go first, oldest first.
        assertThat(assigned(PoolPlanner.plan(spec, List.of(running("m-a", 0), running("m-b", 1), running("m-c", 2)),
                claims, at(15)))).containsExactly("b1=m-a", "b2=m-b", "u1=m-c");
    }

    @Test
    void agingLimitZeroServesEveryClaimOldestFirst() {
        List<Claim> claims = List.of(claim("b1", 0, BATCH), claim("u1", 3, URGENT), claim("i1", 1, INTERACTIVE));
        assertThat(assigned(PoolPlanner.plan(spec(Duration.ZERO), List.of(running("m-a", 0), running("m-b", 1)), claims,
                at(5)))).containsExactly("b1=m-a", "i1=m-b");
    }

    @Test
    void aPendingClaimExpiresAtItsDeadlineAndIsNotServed() {
        Claim due = claim("due", 0, URGENT).withDeadline(Optional.of(at(5)));
        Claim later = claim("later", 1, BATCH).withDeadline(Optional.of(at(6)));
        Claim none = claim("none", 2, BATCH);
        PoolSpec spec = spec(Duration.ofHours(1));

        PoolPlan before = PoolPlanner.plan(spec, List.of(), List.of(due, later, none), at(4));
        assertThat(before.releases()).isEmpty();

        PoolPlan atDeadline = PoolPlanner.plan(spec, List.of(running("m-a", 0)), List.of(due, later, none), at(5));
        assertThat(atDeadline.releases()).extracting(PoolPlan.Release::claimName, PoolPlan.Release::reason,
                PoolPlan.Release::memberId).containsExactly(org.assertj.core.groups.Tuple.tuple("due",
                ReleaseReason.DEADLINE_PASSED, Optional.empty()));
        assertThat(assigned(atDeadline)).as("served one instant before its own deadline").containsExactly("later=m-a");
        assertThat(atDeadline.status().pendingClaims()).isEqualTo(1);
    }

    @Test
    void anAssignedClaimNeverExpires() {
        Claim held = claim("held", 0, BATCH).withDeadline(Optional.of(at(5))).assigned("m-a", at(1));
        PoolPlan plan = PoolPlanner.plan(spec(Duration.ofHours(1)), List.of(running("m-a", 0).assignedTo("held", at(1))),
                List.of(held), at(30));
        assertThat(plan.releases()).isEmpty();
    }

    @Test
    void aSingleClassPoolKeepsItsFifoReasonText() {
        PoolPlan plan = PoolPlanner.plan(spec(Duration.ofHours(1)), List.of(running("m-a", 0)),
                List.of(claim("a", 0, ClaimClass.DEFAULT)), at(1));
        assertThat(plan.assignments().get(0).reason()).isEqualTo("oldest pending claim gets the oldest running member");
        PoolPlan classed = PoolPlanner.plan(spec(Duration.ofHours(1)), List.of(running("m-a", 0)),
                List.of(claim("a", 0, URGENT)), at(1));
        assertThat(classed.assignments().get(0).reason())
                .isEqualTo("first pending claim in service order (class urgent, priority 20) gets the oldest running member");
    }

    @Test
    void badClassesAndRequestsNameTheField() {
        assertThatThrownBy(() -> new ClaimClass("Not A Label", 1)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("claimClass.name").hasMessageContaining("Not A Label");
        assertThatThrownBy(() -> ClaimRequest.of("job").withLifetime(Duration.ZERO)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("lifetime").hasMessageContaining("PT0S");
        assertThatThrownBy(() -> PoolSpec.builder("p").agingLimit(Duration.ofSeconds(-1)).build())
                .isInstanceOf(ValidationException.class).hasMessageContaining("agingLimit").hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> Claim.pending("c", at(0), Optional.empty()).assigned("m", at(1))
                .withClass(BATCH).assigned("m", at(1), Optional.of(ClaimOutcome.EXPIRED)))
                .isInstanceOf(ValidationException.class).hasMessageContaining("outcome");
    }

    @Test
    void aRequestMakesAClaimWithEverythingItAskedFor() {
        Instant deadline = at(30);
        Claim claim = ClaimRequest.of("job").withClass(URGENT).withDeadline(deadline).withLifetime(Duration.ofHours(1))
                .toClaim(at(1));
        assertThat(claim).isEqualTo(new Claim("job", at(1), Optional.of(Duration.ofHours(1)), Optional.empty(),
                Optional.empty(), Optional.empty(), URGENT, Optional.of(deadline), Optional.empty()));
        assertThat(claim.assigned("m", at(2), Optional.of(ClaimOutcome.SERVED_HOT)).ready(at(3)))
                .extracting(Claim::claimClass, Claim::deadline, Claim::outcome)
                .containsExactly(URGENT, Optional.of(deadline), Optional.of(ClaimOutcome.SERVED_HOT));
    }
}
