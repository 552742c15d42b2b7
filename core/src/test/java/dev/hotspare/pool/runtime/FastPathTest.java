package dev.hotspare.pool.runtime;

import dev.hotspare.pool.Claim.ClaimClass;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A claim on a pool with a running unclaimed member is served inside {@code claim()}, with no pass. */
class FastPathTest extends PoolRuntimeTest {

    @Test
    void aClaimOnAHotPoolIsServedAtOnceWithTheOldestRunningMember() {
        start(PoolSpec.builder("ci").size(3).runningCount(2).build());
        time.advanceBy(Duration.ofMinutes(50));
        List<Member> running = live().stream().filter(HandOut::assignable).toList();
        assertThat(running).hasSize(2);
        long passesBefore = time.executedCount();

        ClaimHandle first = controller.claim("first");
        ClaimHandle second = controller.claim(ClaimRequest.of("second").withClass(new ClaimClass("high", 5)));

        assertThat(time.executedCount()).as("no task ran: served inside claim()").isEqualTo(passesBefore);
        assertThat(first.member().join().id()).isEqualTo(running.get(0).id());
        assertThat(second.member().join().id()).isEqualTo(running.get(1).id());
        assertThat(claims.find("ci", "first").orElseThrow().assignedMember()).contains(running.get(0).id());
        assertThat(claims.find("ci", "first").orElseThrow().isReady()).isTrue();
        assertThat(driver.find("ci", running.get(0).id()).orElseThrow().claimName()).contains("first");
    }

    @Test
    void aClaimThatFindsNoRunningMemberWaitsForAPassAndClaimsAreThenServedInServiceOrder() {
        start(PoolSpec.builder("ci").size(1).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(1));
        ClaimHandle low = controller.claim("low");
        ClaimHandle high = controller.claim(ClaimRequest.of("high").withClass(new ClaimClass("high", 5)));
        assertThat(low.member()).isNotDone();
        assertThat(high.member()).isNotDone();

        time.advanceBy(Duration.ofMinutes(45));

        assertThat(high.member()).as("the higher class first, as the planner serves").isCompleted();
    }

    @Test
    void aControllerNotStartedHandsOutOnlyInPasses() {
        controller = PoolController.builder(PoolSpec.builder("ci").size(1).runningCount(1).build()).memberDriver(driver).claimStore(claims)
                .scheduler(time).build();
        controller.reconcile();
        time.advanceBy(Duration.ofMinutes(50));
        controller.reconcile();

        ClaimHandle handle = controller.claim("job");
        assertThat(handle.member()).isNotDone();
        assertThat(controller.reconcile().assignments()).hasSize(1);
        assertThat(handle.member()).isCompleted();
    }
}
