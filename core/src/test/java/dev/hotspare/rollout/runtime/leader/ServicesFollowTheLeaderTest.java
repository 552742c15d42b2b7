package dev.hotspare.rollout.runtime.leader;

import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.Rig;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.runtime.SimulatedFleet;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The services op runs on the current leader's agent and follows leader changes. */
class ServicesFollowTheLeaderTest {

    private final Rig rig = new Rig();
    private final VirtualTimeScheduler scheduler = rig.scheduler;
    private final MemoryRolloutStore store = rig.store;
    private final MemoryRolloutAgentChannel channel = rig.channel;

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
    void theServicesOpFollowsTheLeader() {
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, op -> new SimulatedFleet.Behaviour(
                op.target().kind() == dev.hotspare.rollout.Target.TargetKind.SERVICES ? Duration.ofMinutes(20) : Duration.ofMinutes(1),
                RolloutAgent.Result.succeeded("ok")));
        LeaderElection.Candidacy node1 = candidate("node-1", fleet);
        candidate("node-2", fleet);
        RolloutController.create(store, spec(), INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        scheduler.advanceBy(Duration.ofMinutes(5));
        assertThat(stored().inFlight()).singleElement().satisfies(op -> assertThat(op.address()).isEqualTo(TargetRef.servicesOn("node-1")));
        node1.close();
        assertThat(stored().leader()).contains("node-2");
        assertThat(stored().inFlight()).singleElement().satisfies(op -> {
            assertThat(op.address()).isEqualTo(TargetRef.servicesOn("node-2"));
            assertThat(op.attempt()).isEqualTo(2);
        });
        runUntilFinished();
        assertThat(stored().phase()).isEqualTo(Phase.SUCCEEDED);
    }
}
