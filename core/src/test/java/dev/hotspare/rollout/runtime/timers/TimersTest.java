package dev.hotspare.rollout.runtime.timers;

import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.Rig;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.runtime.SimulatedFleet;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A rollout driven by the controller's timers on virtual time: timeouts, retries, running to the end. */
class TimersTest {

    private final Rig rig = new Rig();
    private final VirtualTimeScheduler scheduler = rig.scheduler;
    private final MemoryRolloutStore store = rig.store;
    private final MemoryRolloutAgentChannel channel = rig.channel;
    private final List<Notice> notices = rig.notices;

    private static final Inventory INVENTORY = Rig.INVENTORY;

    private static RolloutSpec spec() {
        return Rig.spec();
    }

    private RolloutController controller() {
        return rig.controller();
    }

    private RolloutState stored() {
        return rig.stored();
    }

    private void runUntilFinished() {
        rig.runUntilFinished();
    }

    private LeaderElection.Candidacy candidate(String node, SimulatedFleet fleet) {
        return rig.candidate(node, fleet);
    }

    @Test
    void runsARolloutToTheEndOnVirtualTime() {
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, SimulatedFleet.allSucceedAfter(Duration.ofMinutes(3)));
        candidate("node-1", fleet);
        RolloutController.create(store, spec(), INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        runUntilFinished();
        assertThat(stored().phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(c.state()).contains(stored());
        assertThat(fleet.versions.values()).containsOnly("2.0");
        assertThat(fleet.executions.values()).containsOnly(1);
        assertThat(notices).extracting(Notice::kind).contains(Notice.Kind.STARTED, Notice.Kind.FINISHED);
    }

    @Test
    void anAgentThatNeverAnswersTimesOutOnTheVirtualClock() {
        RolloutSpec spec = spec().toBuilder().upgradeControlPlane(false)
                .timeouts(new OpTimeouts(Duration.ofMinutes(30), Duration.ofMinutes(30), Duration.ofMinutes(7))).build();
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY,
                op -> new SimulatedFleet.Behaviour(Duration.ofDays(1), RolloutAgent.Result.succeeded("too late")));
        RolloutController.create(store, spec, INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        scheduler.advanceBy(Duration.ofMinutes(6));
        assertThat(stored().phase()).isEqualTo(Phase.DEVICES);
        scheduler.advanceBy(Duration.ofMinutes(1));
        assertThat(stored().phase()).isEqualTo(Phase.FAILED);
        assertThat(stored().record(TargetRef.device("dev-1")).orElseThrow().message())
                .hasValueSatisfying(m -> assertThat(m).contains("timed out"));
        assertThat(channel.pending(TargetRef.device("dev-1"))).isEmpty();
        assertThat(fleet.executions).hasSize(1);
    }

    @Test
    void failedDevicesAreRetriedOnTimersInsideTheController() {
        RolloutSpec spec = spec().toBuilder().upgradeControlPlane(false).retry(2, Duration.ofMinutes(10)).build();
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, op -> new SimulatedFleet.Behaviour(
                Duration.ofMinutes(1), op.attempt() == 1 && op.target().name().equals("dev-1")
                ? RolloutAgent.Result.failed("flaky") : RolloutAgent.Result.succeeded("ok")));
        RolloutController.create(store, spec, INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        scheduler.advanceBy(Duration.ofMinutes(2));
        assertThat(stored().record(TargetRef.device("dev-1")).orElseThrow().status()).isEqualTo(TargetStatus.RETRY_WAIT);
        runUntilFinished();
        assertThat(stored().phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(fleet.executions).containsKeys("r1:upgrade:device:dev-1:1", "r1:upgrade:device:dev-1:2");
    }
}
