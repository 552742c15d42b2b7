package dev.hotspare.pool.runtime.serving;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Serving claims: hot at once, warm after a resume, oldest claim first, one live claim per name. */
class ClaimServingTest extends PoolRuntimeTest {

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
    void aDuplicateClaimNameIsRefusedByName() {
        start(PoolSpec.builder("ci").size(1).build());
        controller.claim("job-1");
        assertThatThrownBy(() -> controller.claim("job-1")).isInstanceOf(ClaimExistsException.class).hasMessageContaining("job-1");
    }
}
