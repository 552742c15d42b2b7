package dev.hotspare.pool.runtime.handles;

import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Cancelling a claim's handle (or its future) withdraws the claim; a member already assigned is released. */
class ClaimHandleTest extends PoolRuntimeTest {

    @Test
    void cancellingTheFutureOfAPendingClaimWithdrawsIt() {
        start(PoolSpec.builder("ci").size(0).build());
        ClaimHandle handle = controller.claim("job");
        time.advanceBy(Duration.ofMinutes(1));

        assertThat(handle.member().cancel(true)).isTrue();

        assertThat(claims.find("ci", "job")).isEmpty();
        time.advanceBy(Duration.ofMinutes(60));
        assertThat(members()).as("the member made for it is not kept for nobody").isEmpty();
    }

    @Test
    void cancellingAServedHandleReleasesItsMember() {
        start(PoolSpec.builder("ci").size(1).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle handle = controller.claim("job");
        time.runDueTasks();
        String id = handle.member().join().id();

        assertThat(handle.cancel()).isTrue();
        time.runDueTasks();

        assertThat(claims.find("ci", "job")).isEmpty();
        assertThat(driver.find("ci", id)).isEmpty();
        assertThat(handle.cancel()).as("idempotent").isFalse();
    }

    @Test
    void aFutureCancelledWhileItsMemberIsBeingAssignedStillReleasesTheMember() {
        AtomicReference<ClaimHandle> handle = new AtomicReference<>();
        start(PoolSpec.builder("ci").size(1).runningCount(1).build());
        controller.close();
        controller = PoolController.builder(PoolSpec.builder("ci").size(1).runningCount(1).build()).memberDriver(driver).claimStore(claims)
                .scheduler(time).resyncPeriod(Duration.ofMinutes(1)).listener(new PoolListener() {
                    @Override
                    public void onClaimAssigned(String pool, PoolPlan.Assignment assignment, Member memberBefore) {
                        handle.get().member().cancel(true); // the claimer gives up in the very pass that serves it
                    }
                }).build().start();
        // Claimed while the member installs: a pass serves it (the fast path serves only running members).
        time.advanceBy(Duration.ofMinutes(1));
        handle.set(controller.claim("job"));
        String id = live().get(0).id();

        time.advanceBy(Duration.ofMinutes(50));

        assertThat(handle.get().member()).isCancelled();
        assertThat(claims.find("ci", "job")).isEmpty();
        assertThat(driver.find("ci", id)).as("assigned, then released: deleted, not held for nobody").isEmpty();
    }

    @Test
    void cancellingAnOldHandleLeavesANewClaimOfTheSameNameAlone() {
        start(PoolSpec.builder("ci").size(1).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        ClaimHandle old = controller.claim("job");
        time.runDueTasks();
        controller.release(old);
        time.advanceBy(Duration.ofMinutes(45));
        ClaimHandle renewed = controller.claim("job");
        time.runDueTasks();

        assertThat(old.cancel()).isFalse();

        assertThat(renewed.member()).isCompleted();
        assertThat(claims.find("ci", "job")).isPresent();
        assertThat(driver.find("ci", renewed.member().join().id()).orElseThrow().phase()).isEqualTo(MemberPhase.READY);
    }
}
