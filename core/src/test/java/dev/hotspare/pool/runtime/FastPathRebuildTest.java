package dev.hotspare.pool.runtime;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hand-out index rebuilt from a pass's read keeps the changes that reached it after the read: a member deleted
 * while the pass was planning is not handed out.
 */
class FastPathRebuildTest {

    @Test
    void aMemberThatChangedAfterTheReadIsNotLeftAsTheReadSawIt() {
        VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
        InMemoryMemberDriver memory = InMemoryMemberDriver.builder(time).deleteTime(Duration.ofMinutes(10)).build();
        InMemoryClaimStore claims = new InMemoryClaimStore();
        ControllableDriver driver = new ControllableDriver(memory);
        PoolController controller = PoolController.builder(PoolSpec.builder("ci").size(3).runningCount(2).build())
                .memberDriver(driver).claimStore(claims).scheduler(time).resyncPeriod(Duration.ofSeconds(1)).build()
                .start();
        time.advanceBy(Duration.ofSeconds(5));
        List<Member> running = memory.list("ci").stream().filter(HandOut::assignable).toList();
        assertThat(running).hasSize(2);
        String deleted = running.stream().sorted(Member.TOTAL_ORDER).findFirst().orElseThrow().id();

        // The next pass reads the pool; then, before the pass rebuilds its index from that read, another writer
        // (an operator, say) deletes the member. It stays DELETING for ten minutes and no pass writes it again, so no
        // later event corrects an index that has it as the read saw it.
        driver.afterNextList = () -> memory.delete("ci", deleted);
        time.advanceBy(Duration.ofSeconds(1));

        assertThat(driver.afterNextList).as("the hook ran").isNull();
        assertThat(controller.handOutMatchesRebuild()).as("the index equals one rebuilt from the stores now").isTrue();
        ClaimHandle claim = controller.claim("job");
        assertThat(claim.member()).isCompleted();
        assertThat(claim.member().join().id()).as("the member being deleted is not handed out").isNotEqualTo(deleted);
        controller.close();
    }
}
