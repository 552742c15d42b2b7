package dev.hotspare.pool.runtime.deletion;

import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim.ClaimReason;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController.PoolDeletedException;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Deleting a pool: new claims are refused, unclaimed members go within {@code maxConcurrent}, claimed members
 * stay until released, the status says what deletion waits for, and a future completes when the pool is empty.
 */
class PoolDeletionTest extends PoolRuntimeTest {

    @Override
    protected InMemoryMemberDriver.Builder driverBuilder() {
        return super.driverBuilder().deleteTime(Duration.ofMinutes(2));
    }

    @Test
    void aDeletedPoolWindsDownAroundItsClaimedMembers() {
        start(PoolSpec.builder("ci").size(3).runningCount(1).maxConcurrent(1).build());
        time.advanceBy(Duration.ofMinutes(3 * 42));
        ClaimHandle held = controller.claim("job");
        time.runDueTasks();
        String heldId = held.member().join().id();
        time.advanceBy(Duration.ofMinutes(45));
        assertThat(live()).hasSize(4);

        CompletableFuture<Void> done = controller.delete();
        time.runDueTasks();
        assertThat(members()).filteredOn(m -> m.phase() == MemberPhase.DELETING).as("one at a time: maxConcurrent 1").hasSize(1);
        time.advanceBy(Duration.ofMinutes(10));

        assertThat(members()).extracting(Member::id).containsExactly(heldId);
        PoolPlan.Status status = controller.lastPlan().orElseThrow().status();
        assertThat(status.poolDeleted()).isTrue();
        assertThat(status.deletionWaitsFor()).containsExactly(heldId);
        assertThat(done).isNotDone();

        controller.release(held);
        time.advanceBy(Duration.ofMinutes(3));
        assertThat(members()).isEmpty();
        assertThat(done).isCompleted();
    }

    @Test
    void aDeletedPoolRefusesNewClaimsByName() {
        start(PoolSpec.builder("ci").size(1).build());
        controller.delete();
        assertThatThrownBy(() -> controller.claim("late")).isInstanceOf(PoolDeletedException.class)
                .hasMessage("claimName: bad value 'late': pool 'ci' is being deleted and takes no new claims");
        assertThat(claims.find("ci", "late")).isEmpty();
    }

    @Test
    void aClaimPendingWhenThePoolIsDeletedWaitsWithThatReason() {
        start(PoolSpec.builder("ci").size(0).build());
        controller.claim("early");
        controller.delete();
        time.advanceBy(Duration.ofMinutes(60));
        assertThat(members()).isEmpty();
        assertThat(controller.explain("early").orElseThrow().reason()).isEqualTo(new ClaimReason.PoolDeleting());
    }

    @Test
    void aDeletedPoolCannotBeRevived() {
        start(PoolSpec.builder("ci").size(1).build());
        controller.delete();
        assertThatThrownBy(() -> controller.updateSpec(PoolSpec.builder("ci").size(1).build()))
                .isInstanceOf(ValidationException.class).hasMessageContaining("deleted").hasMessageContaining("revived");
        assertThat(controller.spec().deleted()).isTrue();
    }
}
