package dev.hotspare.pool.runtime.explain;

import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController.ClaimExplanation;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code PoolController.explain}: one current reason per claim, with the member and when it should be ready. */
class ExplainTest extends PoolRuntimeTest {

    @Test
    void aClaimWaitingForAResumeNamesTheMemberAndWhenItShouldRunFromTheResumesSeenSoFar() {
        start(PoolSpec.builder("ci").size(2).runningCount(0).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle first = controller.claim("first");
        time.advanceBy(Duration.ofMinutes(10));
        Member firstMember = first.member().join();

        Instant asked = time.now();
        controller.claim("second");
        time.runDueTasks();
        String next = live().stream().filter(m -> !m.isClaimed()).findFirst().orElseThrow().id();
        ClaimExplanation waiting = controller.explain("second").orElseThrow();
        assertThat(waiting.reason()).isEqualTo(new ClaimReason.WaitingForResume(next, asked, Optional.of(asked.plus(Duration.ofMinutes(5)))));
        assertThat(waiting.reason().text()).isEqualTo("waiting for member " + next + " to resume (since " + asked
                + "), expected running at " + asked.plus(Duration.ofMinutes(5)));
        time.advanceBy(Duration.ofMinutes(2));
        assertThat(controller.explain("second").orElseThrow().waited()).isEqualTo(new ClaimStages(Duration.ZERO, Duration.ofMinutes(2), Duration.ZERO));

        ClaimExplanation served = controller.explain("first").orElseThrow();
        Instant assignedAt = served.claim().assignedAt().orElseThrow();
        assertThat(served.reason()).isEqualTo(new ClaimReason.Assigned(firstMember.id(), assignedAt, Optional.of(assignedAt)));
        assertThat(served.waited()).isEqualTo(new ClaimStages(Duration.ZERO, Duration.ofMinutes(5), Duration.ZERO));
    }

    @Test
    void aClaimWaitingForAnInstallNamesTheMemberAndOnceAnInstallWasSeenWhenItShouldBeReady() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).build());
        controller.claim("first");
        time.runDueTasks();
        Member installing = live().get(0);
        assertThat(controller.explain("first").orElseThrow().reason())
                .isEqualTo(new ClaimReason.Provisioning(Optional.of(installing.id()), installing.createdAt(), Optional.empty()));
        time.advanceBy(Duration.ofMinutes(45));

        controller.claim("second");
        time.runDueTasks();
        Member next = live().stream().filter(m -> !m.isClaimed()).findFirst().orElseThrow();
        assertThat(controller.explain("second").orElseThrow().reason()).isEqualTo(new ClaimReason.Provisioning(
                Optional.of(next.id()), next.createdAt(), Optional.of(next.createdAt().plus(Duration.ofMinutes(40)))));
    }

    @Test
    void aClaimBlockedByMaxSizeSaysSo() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).maxSize(1).build());
        controller.claim("first");
        time.advanceBy(Duration.ofMinutes(45));
        controller.claim("second");
        time.runDueTasks();
        assertThat(controller.explain("second").orElseThrow().reason()).isEqualTo(new ClaimReason.AtMaxSize(1, 1));
        assertThat(controller.lastPlan().orElseThrow().reasonFor("second")).contains(new ClaimReason.AtMaxSize(1, 1));
    }

    @Test
    void noLiveClaimNoExplanation() {
        start(PoolSpec.builder("ci").size(0).build());
        assertThat(controller.explain("nobody")).isEmpty();
    }
}
