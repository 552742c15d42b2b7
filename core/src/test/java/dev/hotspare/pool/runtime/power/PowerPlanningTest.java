package dev.hotspare.pool.runtime.power;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Power planning: runningCount hot spares, the rest hibernated, hibernateAfter for claimed members. */
class PowerPlanningTest extends PoolRuntimeTest {

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
}
