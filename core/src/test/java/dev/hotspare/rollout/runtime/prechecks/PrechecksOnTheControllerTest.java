package dev.hotspare.rollout.runtime.prechecks;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.Rig;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.runtime.SimulatedFleet;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PrechecksOnTheControllerTest {

    private final Rig rig = new Rig();

    @Test
    void aDeviceFailingItsPrecheckIsLeftOutTheRestIsUpgradedAndTheRolloutEndsFailed() {
        RolloutSpec spec = Rig.spec().toBuilder().prechecks(true).maxParallel(2).maxFailures(1).build();
        List<String> prechecked = new ArrayList<>();
        SimulatedFleet fleet = new SimulatedFleet(rig.channel, rig.scheduler, Rig.INVENTORY, op -> {
            if (op.kind() == OpKind.PRECHECK) {
                prechecked.add(op.target().name());
            }
            boolean fails = op.kind() == OpKind.PRECHECK && op.target().name().equals("dev-2");
            return new SimulatedFleet.Behaviour(Duration.ofMinutes(3),
                    fails ? RolloutAgent.Result.failed("battery low") : RolloutAgent.Result.succeeded("ok"));
        });
        rig.candidate("node-1", fleet);
        RolloutController.create(rig.store, spec, Rig.INVENTORY);
        RolloutController controller = rig.controller();
        controller.start();
        controller.submit(new RolloutEvent.Start());
        rig.runUntilFinished();

        RolloutState end = rig.stored();
        assertThat(prechecked).as("nodes one at a time, then the canary group, then edge")
                .containsExactly("node-1", "node-2", "dev-1", "dev-2", "dev-3");
        assertThat(end.phase()).isEqualTo(Phase.FAILED);
        assertThat(end.reason()).contains("every stage finished, but 1 device(s) failed their precheck and were left out "
                + "of the upgrade: device/dev-2");
        assertThat(end.record(TargetRef.device("dev-2")).orElseThrow().message()).contains("precheck failed: battery low");
        assertThat(fleet.versions).containsEntry(TargetRef.device("dev-1"), "2.0").containsEntry(TargetRef.device("dev-3"), "2.0")
                .containsEntry(TargetRef.device("dev-2"), "1.0").containsEntry(TargetRef.node("node-2"), "2.0");
        assertThat(fleet.executions).doesNotContainKey("r1:upgrade:device:dev-2:1");
        assertThat(rig.notices).filteredOn(n -> n.kind() == Notice.Kind.TARGET_FAILED).extracting(Notice::message)
                .containsExactly("device/dev-2 precheck failed: battery low; left out of the upgrade");
    }

    @Test
    void anUnhealthyNodeFailsThePrecheckStageBeforeAnyAgentIsAsked() {
        Inventory inventory = new Inventory(List.of(Target.node("node-1", "1.0"), Target.node("node-2", "1.0").withHealth(true, false),
                Target.device("dev-1", "1.0", Map.of("tier", "canary"))));
        SimulatedFleet fleet = new SimulatedFleet(rig.channel, rig.scheduler, inventory, SimulatedFleet.allSucceedAfter(Duration.ofMinutes(1)));
        RolloutController.create(rig.store, Rig.spec().toBuilder().prechecks(true).build(), inventory);
        RolloutController controller = rig.controller();
        controller.start();
        controller.submit(new RolloutEvent.Start());
        assertThat(rig.stored().phase()).isEqualTo(Phase.FAILED);
        assertThat(rig.stored().reason()).contains("precheck stage failed: node node-2 is not healthy");
        assertThat(rig.stored().record(TargetRef.node("node-2")).orElseThrow().status()).isEqualTo(TargetStatus.FAILED);
        assertThat(fleet.executions).isEmpty();
        assertThat(rig.channel.publishCount()).isZero();
    }
}
