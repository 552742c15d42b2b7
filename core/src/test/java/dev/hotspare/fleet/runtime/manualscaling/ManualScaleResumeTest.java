package dev.hotspare.fleet.runtime.manualscaling;

import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.runtime.Fleet;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A manual request survives its worker: recorded, then the worker dies after saving its decision (or in the middle
 * of applying it), and a second worker on the same stores applies it exactly once.
 */
class ManualScaleResumeTest {

    @Test
    void aScaleUpWhoseWorkerDiedAfterSavingTheDecisionIsAppliedOnceByTheNextWorker() {
        ScaleWorld world = new ScaleWorld(0, 10, 2);
        Fleet first = world.crashingFleet(ScaleWorld.CrashPoint.AFTER_DECISION_SAVED, 0);
        CompletableFuture<Integer> up = first.operations().scaleUp("pong", 3);
        world.time.runDueTasks();
        first.close();

        ScaleInputs left = world.schedulers.loadScaleInputs("pong").inputs();
        assertThat(left.pending()).isEmpty();
        assertThat(left.applying()).as("the decision is saved").hasValueSatisfying(a -> {
            assertThat(a.create()).isEqualTo(3);
            assertThat(a.target()).isEqualTo(5);
        });
        assertThat(world.rooms()).as("the worker died before creating a room").hasSize(2);

        Fleet second = world.fleet();
        world.time.advanceBy(Duration.ofSeconds(10));

        assertThat(world.rooms()).hasSize(5);
        assertThat(up).as("the caller of the first instance sees the outcome").isCompletedWithValue(3);
        world.time.advanceBy(Duration.ofMinutes(1));
        assertThat(world.rooms()).as("applied once").hasSize(5);
        assertThat(world.schedulers.loadScaleInputs("pong").inputs().idle()).isTrue();
        second.close();
    }

    @Test
    void aScaleDownWhoseWorkerDiedMidwayRemovesOnlyTheSavedVictimsStillThere() {
        ScaleWorld world = new ScaleWorld(0, 10, 5);
        Fleet first = world.crashingFleet(ScaleWorld.CrashPoint.MID_APPLY, 1);
        CompletableFuture<Integer> down = first.operations().scaleDown("pong", 2);
        world.time.runDueTasks();
        first.close();
        List<String> victims = world.schedulers.loadScaleInputs("pong").inputs().applying().orElseThrow().victims();
        assertThat(victims).hasSize(2);
        assertThat(world.rooms()).as("one victim went before the crash").hasSize(4).doesNotContain(victims.get(0));

        Fleet second = world.fleet();
        world.time.advanceBy(Duration.ofSeconds(30));

        assertThat(world.rooms()).hasSize(3).doesNotContainAnyElementsOf(victims);
        assertThat(down).isCompletedWithValue(2);
        second.close();
    }
}
