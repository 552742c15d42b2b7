package dev.hotspare.pool.runtime.consistency;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ControllableClaims;
import dev.hotspare.pool.runtime.ControllableDriver;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Member and claim records that disagree are repaired before planning, or reported and left alone: no pair of
 * records makes {@code reconcile()} fail pass after pass.
 */
class InconsistentRecordsTest extends PoolRuntimeTest {

    Member running(String id, Optional<String> claim, Optional<Instant> claimedAt) {
        Instant t = time.now().minus(Duration.ofHours(1));
        return new Member(id, t, "v1", MemberPhase.READY, DesiredPower.RUNNING, ObservedPower.RUNNING, t, Optional.of(t),
                Optional.of(t), claim, claimedAt);
    }

    PoolSpec spec() {
        return PoolSpec.builder("ci").size(0).runningCount(0).build();
    }

    @Test
    void aClaimedMemberWithNoClaimTimeAndItsPendingClaimAreJoined() {
        driver.restore("ci", running("m", Optional.of("job"), Optional.empty()));
        claims.submit("ci", "job", Optional.empty(), time.now().minus(Duration.ofMinutes(5)));
        start(spec());

        PoolPlan plan = controller.reconcile();

        assertThat(plan.status().pendingClaims()).isZero();
        Claim job = claims.find("ci", "job").orElseThrow();
        assertThat(job.assignedMember()).contains("m");
        assertThat(job.assignedAt()).contains(time.now());
        assertThat(job.readyAt()).contains(time.now());
    }

    @Test
    void twoMembersNamingOnePendingClaimLeaveOneHoldingItAndTheOtherDeleted() {
        Instant claimedAt = time.now().minus(Duration.ofMinutes(1));
        driver.restore("ci", running("m-1", Optional.of("job"), Optional.of(claimedAt)));
        driver.restore("ci", running("m-2", Optional.of("job"), Optional.of(claimedAt)));
        claims.submit("ci", "job", Optional.empty(), time.now().minus(Duration.ofMinutes(5)));
        start(spec());

        controller.reconcile();
        time.runDueTasks();

        String holder = claims.find("ci", "job").orElseThrow().assignedMember().orElseThrow();
        assertThat(members()).extracting(Member::id).containsExactly(holder);
    }

    @Test
    void aClaimRecordNamingAMemberThatDoesNotKnowItIsWrittenOnTheMember() {
        driver.restore("ci", running("m", Optional.empty(), Optional.empty()));
        Instant assignedAt = time.now().minus(Duration.ofMinutes(2));
        claims.submit("ci", "job", Optional.empty(), time.now().minus(Duration.ofMinutes(5)));
        claims.assign("ci", "job", "m", assignedAt);
        start(spec());

        controller.reconcile();

        Member m = driver.find("ci", "m").orElseThrow();
        assertThat(m.claimName()).contains("job");
        assertThat(m.claimedAt()).contains(assignedAt);
        assertThat(claims.find("ci", "job").orElseThrow().readyAt()).contains(time.now());
    }

    @Test
    void aMemberNamingOneClaimWhileTheStoreGaveItToAnotherSettlesWithoutFailing() {
        Instant claimedAt = time.now().minus(Duration.ofMinutes(1));
        driver.restore("ci", running("m", Optional.of("a"), Optional.of(claimedAt)));
        claims.submit("ci", "a", Optional.empty(), time.now().minus(Duration.ofMinutes(5)));
        claims.submit("ci", "b", Optional.empty(), time.now().minus(Duration.ofMinutes(4)));
        claims.assign("ci", "b", "m", claimedAt);
        start(spec());

        controller.reconcile();
        time.runDueTasks();

        assertThat(claims.find("ci", "b")).as("the member record wins; the other claim is released").isEmpty();
        assertThat(claims.find("ci", "a").orElseThrow().assignedMember()).contains("m");
        assertThat(driver.find("ci", "m").orElseThrow().phase()).isEqualTo(MemberPhase.READY);
    }

    @Test
    void aPendingClaimWhoseMemberIsDeletingShowsClusterDeletingAndIsNeverServedAgain() {
        // Item 1 of issue 27, as Hive: the deleting member is recorded on the claim, which shows MEMBER_DELETING
        // (Hive's ClusterDeleting) and ends when the member is gone instead of getting a new member.
        Instant claimedAt = time.now().minus(Duration.ofMinutes(1));
        driver.restore("ci", running("m", Optional.of("job"), Optional.of(claimedAt)).withPhase(MemberPhase.DELETING));
        claims.submit("ci", "job", Optional.empty(), time.now().minus(Duration.ofMinutes(5)));
        start(PoolSpec.builder("ci").size(1).runningCount(1).build());

        PoolPlan plan = controller.reconcile();

        Claim job = claims.find("ci", "job").orElseThrow();
        assertThat(job.assignedMember()).contains("m");
        assertThat(job.readyAt()).as("never handed over").isEmpty();
        assertThat(plan.status().pendingClaims()).isZero();
        assertThat(controller.explain("job").orElseThrow().reason()).isEqualTo(new ClaimReason.MemberDeleting("m"));

        time.advanceBy(Duration.ofHours(2));

        assertThat(claims.find("ci", "job")).as("released once its member is gone, never served again").isEmpty();
        assertThat(members()).isNotEmpty().allSatisfy(m -> assertThat(m.claimName()).isEmpty());
    }

    @Test
    void aRepairThatFailsIsNotBuiltOnAndTheNextPassWritesIt() {
        Instant claimedAt = time.now().minus(Duration.ofMinutes(1));
        driver.restore("ci", running("m", Optional.of("job"), Optional.of(claimedAt)));
        claims.submit("ci", "job", Optional.empty(), time.now().minus(Duration.ofMinutes(5)));
        ControllableClaims flaky = new ControllableClaims(claims);
        boolean[] fail = {true};
        flaky.beforeAssign = name -> {
            if (fail[0]) {
                throw new IllegalStateException("store down");
            }
        };
        start(spec(), driver, flaky);

        controller.reconcile();

        Claim job = claims.find("ci", "job").orElseThrow();
        assertThat(job.assignedMember()).as("the write failed").isEmpty();
        assertThat(job.readyAt()).as("nothing built on the failed write").isEmpty();
        assertThat(driver.find("ci", "m").orElseThrow().claimName()).contains("job");

        fail[0] = false;
        controller.reconcile();

        job = claims.find("ci", "job").orElseThrow();
        assertThat(job.assignedMember()).contains("m");
        assertThat(job.assignedAt()).contains(claimedAt);
        assertThat(job.readyAt()).contains(time.now());
    }

    @Test
    void aMemberListedTwiceCountsOnce() {
        ControllableDriver twice = new ControllableDriver(driver);
        twice.listTwice = true;
        start(PoolSpec.builder("ci").size(2).runningCount(1).build(), twice, claims);
        time.advanceBy(Duration.ofMinutes(50));
        assertThat(members()).hasSize(2);
        assertThat(controller.lastPlan().orElseThrow().status().total()).isEqualTo(2);
        assertThat(List.copyOf(twice.calls)).filteredOn(c -> c.equals("create")).hasSize(2);
    }
}
