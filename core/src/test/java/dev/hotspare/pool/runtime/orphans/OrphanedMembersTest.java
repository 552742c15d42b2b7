package dev.hotspare.pool.runtime.orphans;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.CapturedLogs;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.ControllableClaims;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A claimed member whose claim is missing from the claim store is orphaned, not released: it keeps running for
 * {@code orphanGracePeriod} (10 minutes by default), and a read that lists no claim at all deletes nothing.
 */
class OrphanedMembersTest extends PoolRuntimeTest {

    ControllableClaims store;

    @BeforeEach
    void wrapTheStore() {
        store = new ControllableClaims(claims);
    }

    /**
     * Starts a pool of two hot spares and claims both: "job", whose member the test follows, and "other", which
     * stays live so the claim store never lists nothing (a read listing no claim deletes nothing; see the last test).
     */
    String claimOne(PoolSpec spec) {
        start(spec, driver, store);
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim("job");
        controller.claim("other");
        time.runDueTasks();
        return handle.member().join().id();
    }

    Member member(String id) {
        return driver.find(poolName(), id).orElseThrow();
    }

    @Test
    void aMemberWhoseClaimVanishedIsMarkedAndDeletedOnlyAfterTheGracePeriod() {
        String id = claimOne(PoolSpec.builder("ci").size(2).runningCount(2).build());
        Instant lost = time.now();
        claims.release("ci", "job"); // ended behind the controller's back: no release mark
        time.runDueTasks();
        assertThat(member(id).orphanedSince()).contains(lost);
        assertThat(controller.lastPlan().orElseThrow().orphans()).extracting(o -> o.memberId(), o -> o.claimName(), o -> o.since())
                .containsExactly(org.assertj.core.groups.Tuple.tuple(id, "job", lost));
        assertThat(CapturedLogs.mentioning("pool ci:")).noneMatch(e -> e.level() == Level.WARN && e.mentions("listed no live claim"));

        time.advanceBy(Duration.ofMinutes(9));
        assertThat(member(id).phase()).as("still in use for all we know").isEqualTo(MemberPhase.READY);
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(driver.find("ci", id)).as("10 minutes orphaned").isEmpty();
    }

    @Test
    void aClaimMissingFromSomeReadsKeepsItsMember() {
        String id = claimOne(PoolSpec.builder("ci").size(2).runningCount(2).build());
        Instant hidden = time.now();
        store.hiddenFromLive.add("job");
        controller.requestReconcile();
        time.runDueTasks();
        assertThat(member(id).orphanedSince()).contains(hidden);

        time.advanceBy(Duration.ofMinutes(5));
        store.hiddenFromLive.clear();
        time.advanceBy(Duration.ofMinutes(1));
        assertThat(member(id).orphanedSince()).as("the claim was seen again").isEmpty();
        time.advanceBy(Duration.ofMinutes(30));
        assertThat(member(id).claimName()).contains("job");
        assertThat(member(id).phase()).isEqualTo(MemberPhase.READY);
    }

    @Test
    void withAZeroGracePeriodAnOrphanGoesOnThePassThatMissesItsClaim() {
        String id = claimOne(PoolSpec.builder("ci").size(2).runningCount(2).orphanGracePeriod(Duration.ZERO).build());
        claims.release("ci", "job");
        time.runDueTasks();
        assertThat(driver.find("ci", id)).isEmpty();
    }

    @Test
    void anOrphanWhoseClaimIsFoundOnALastLookIsKept() {
        String id = claimOne(PoolSpec.builder("last-look").size(2).runningCount(2).orphanGracePeriod(Duration.ZERO).build());
        store.hiddenFromLive.add("job");
        time.advanceBy(Duration.ofMinutes(5));
        assertThat(member(id).phase()).isEqualTo(MemberPhase.READY);
        assertThat(CapturedLogs.mentioning("last-look")).extracting(CapturedLogs.Event::message)
                .anyMatch(m -> m.contains("claim job of orphaned member " + id + " is live after all"));
    }

    @Test
    void aReadListingNoClaimDeletesNoClaimedMemberWhateverTheGraceAndWarnsOnce() {
        start(PoolSpec.builder("empty-read").size(2).runningCount(2).orphanGracePeriod(Duration.ZERO).build(), driver, store);
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle a = controller.claim("a");
        ClaimHandle b = controller.claim("b");
        time.runDueTasks();

        store.emptyLive = true;
        time.advanceBy(Duration.ofMinutes(30));
        assertThat(driver.find("empty-read", a.member().join().id())).isPresent();
        assertThat(driver.find("empty-read", b.member().join().id())).isPresent();
        assertThat(controller.lastPlan().orElseThrow().status().emptyClaimRead()).isTrue();
        assertThat(CapturedLogs.mentioning("empty-read")).filteredOn(e -> e.level() == Level.WARN)
                .extracting(CapturedLogs.Event::message).singleElement().asString()
                .contains("listed no live claim while 2 member(s) are claimed");

        store.emptyLive = false;
        time.advanceBy(Duration.ofMinutes(30));
        assertThat(live()).filteredOn(Member::isClaimed).hasSize(2);
    }
}
