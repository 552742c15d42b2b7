package dev.hotspare.pool.runtime.releasemark;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.PoolSpec.ClaimLifetime;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Releasing claims, by the user or by lifetime: the member goes, the pool refills. */
class ReleaseTest extends PoolRuntimeTest {

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
}
