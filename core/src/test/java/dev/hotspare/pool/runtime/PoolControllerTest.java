package dev.hotspare.pool.runtime;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.ClaimLifetime;
import dev.hotspare.pool.DesiredPower;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.spi.ClaimExistsException;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pool controller on virtual time: 40-minute installs and 5-minute resumes, as in the seed. */
class PoolControllerTest {

    VirtualTimeScheduler time;
    InMemoryMemberDriver driver;
    InMemoryClaimStore claims;
    PoolController controller;

    @BeforeEach
    void setUp() {
        time = VirtualTimeScheduler.startingAt2026();
        driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofMinutes(40)).resumeTime(Duration.ofMinutes(5))
                .hibernateTime(Duration.ofMinutes(2)).build();
        claims = new InMemoryClaimStore();
    }

    void start(PoolSpec spec) {
        controller = PoolController.builder(spec, driver, claims).scheduler(time).resyncPeriod(Duration.ofMinutes(1)).build().start();
    }

    List<Member> members() {
        return driver.list("ci").stream().sorted(Member.TOTAL_ORDER).toList();
    }

    @Test
    void fillsThePoolWithRunningCountHotAndTheRestHibernated() {
        start(PoolSpec.builder("ci").size(4).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        List<Member> members = members();
        assertThat(members).hasSize(4).allSatisfy(m -> assertThat(m.phase()).isEqualTo(MemberPhase.READY));
        assertThat(members).extracting(Member::observedPower)
                .containsExactly(ObservedPower.RUNNING, ObservedPower.HIBERNATING, ObservedPower.HIBERNATING, ObservedPower.HIBERNATING);
        assertThat(driver.writeCount()).as("one write per created member, nothing else").isEqualTo(4);
    }

    @Test
    void aClaimIsServedHotImmediatelyAndTheHotSetIsRefilledOldestFirst() {
        start(PoolSpec.builder("ci").size(3).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        Member oldest = members().get(0);
        Instant claimTime = time.now();
        ClaimHandle handle = controller.claim("job-1");
        time.runDueTasks();
        assertThat(handle.member()).isCompleted();
        Member got = handle.member().join();
        assertThat(got.id()).isEqualTo(oldest.id());
        assertThat(time.now()).isEqualTo(claimTime);
        Member nextOldest = members().stream().filter(m -> !m.isClaimed()).findFirst().orElseThrow();
        assertThat(nextOldest.desiredPower()).isEqualTo(DesiredPower.RUNNING);
        time.advanceBy(Duration.ofMinutes(6));
        assertThat(driver.find("ci", nextOldest.id()).orElseThrow().observedPower()).isEqualTo(ObservedPower.RUNNING);
    }

    @Test
    void withNoHotSpareAClaimWaitsForAResume() {
        start(PoolSpec.builder("ci").size(2).runningCount(0).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim("job-1");
        time.advanceBy(Duration.ofMinutes(4));
        assertThat(handle.member()).isNotDone();
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(handle.member()).isCompleted();
    }

    @Test
    void claimsAreServedInTheOrderTheyWereMade() {
        start(PoolSpec.builder("ci").size(3).runningCount(0).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle first = controller.claim("first");
        time.advanceBy(Duration.ofSeconds(1));
        ClaimHandle second = controller.claim("second");
        time.advanceBy(Duration.ofMinutes(10));
        Member a = first.member().join();
        Member b = second.member().join();
        assertThat(Member.TOTAL_ORDER.compare(a, b)).isNegative();
    }

    @Test
    void releasingAClaimDeletesItsMemberAndThePoolRefills() {
        start(PoolSpec.builder("ci").size(2).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim("job-1");
        time.runDueTasks();
        String id = handle.member().join().id();
        assertThat(controller.release(handle)).isTrue();
        assertThat(controller.release(handle)).isFalse();
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(driver.find("ci", id)).isEmpty();
        time.advanceBy(Duration.ofMinutes(45));
        assertThat(members()).hasSize(2).noneMatch(Member::isClaimed);
    }

    @Test
    void releasingAPendingClaimCancelsItsFuture() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).build());
        ClaimHandle handle = controller.claim("job-1");
        time.advanceBy(Duration.ofMinutes(1));
        controller.release(handle);
        assertThat(handle.member()).isCancelled();
        time.advanceBy(Duration.ofMinutes(50));
        assertThat(members()).isEmpty();
    }

    @Test
    void claimLifetimeExpiryReleasesTheMember() {
        start(PoolSpec.builder("ci").size(1).runningCount(1)
                .claimLifetime(new ClaimLifetime(Optional.of(Duration.ofMinutes(30)), Optional.empty())).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim("job-1");
        time.runDueTasks();
        String id = handle.member().join().id();
        time.advanceBy(Duration.ofMinutes(31));
        assertThat(claims.find("ci", "job-1")).isEmpty();
        assertThat(driver.find("ci", id)).isEmpty();
    }

    @Test
    void claimedMembersHibernateAfterHibernateAfter() {
        start(PoolSpec.builder("ci").size(1).runningCount(1).hibernateAfter(Duration.ofMinutes(60)).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim("job-1");
        time.runDueTasks();
        String id = handle.member().join().id();
        time.advanceBy(Duration.ofMinutes(59));
        assertThat(driver.find("ci", id).orElseThrow().observedPower()).isEqualTo(ObservedPower.RUNNING);
        time.advanceBy(Duration.ofMinutes(4));
        assertThat(driver.find("ci", id).orElseThrow().observedPower()).isEqualTo(ObservedPower.HIBERNATING);
        assertThat(members().stream().filter(m -> !m.isClaimed()).map(Member::observedPower).toList())
                .as("unclaimed members never hibernate because of hibernateAfter").containsOnly(ObservedPower.RUNNING);
    }

    @Test
    void raisingRunningCountResumesTheNextOldest() {
        start(PoolSpec.builder("ci").size(4).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        long before = driver.writeCount();
        controller.updateSpec(controller.spec().toBuilder().runningCount(3).build());
        time.advanceBy(Duration.ofMinutes(6));
        assertThat(driver.writeCount() - before).as("exactly |3 - 1| power writes").isEqualTo(2);
        assertThat(members()).extracting(Member::observedPower).containsExactly(ObservedPower.RUNNING, ObservedPower.RUNNING,
                ObservedPower.RUNNING, ObservedPower.HIBERNATING);
    }

    @Test
    void aDuplicateClaimNameIsRefusedByName() {
        start(PoolSpec.builder("ci").size(1).build());
        controller.claim("job-1");
        assertThatThrownBy(() -> controller.claim("job-1")).isInstanceOf(ClaimExistsException.class).hasMessageContaining("job-1");
    }

    @Test
    void aFailedMemberIsReplaced() {
        start(PoolSpec.builder("ci").size(2).runningCount(0).build());
        time.advanceBy(Duration.ofMinutes(50));
        Member victim = members().get(0);
        driver.fail("ci", victim.id());
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(driver.find("ci", victim.id())).isEmpty();
        time.advanceBy(Duration.ofMinutes(45));
        assertThat(members()).hasSize(2).allSatisfy(m -> assertThat(m.phase()).isEqualTo(MemberPhase.READY));
        assertThat(members()).extracting(Member::id).doesNotContain(victim.id());
        assertThat(members().stream().map(Member::createdAt).max(Comparator.naturalOrder())).isPresent();
    }
}
