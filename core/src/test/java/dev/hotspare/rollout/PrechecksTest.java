package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutPlanner.RolloutPlan;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.TargetRecord;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Prechecks: node health first, then node prechecks, then device prechecks paced like the upgrade. */
class PrechecksTest {

    private static final RolloutEvent START = new RolloutEvent.Start();
    private static final RolloutEvent LEADER_1 = new RolloutEvent.LeaderChanged(Optional.of("node-1"));

    private static Map<String, Integer> groups(Object... labelCounts) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (int i = 0; i < labelCounts.length; i += 2) {
            m.put((String) labelCounts[i], (Integer) labelCounts[i + 1]);
        }
        return m;
    }

    private static RolloutSpec.Builder spec() {
        return RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").deviceGroup("tier", "edge").prechecks(true);
    }

    private static List<OpKind> kinds(MachineDriver d) {
        return d.issued().stream().map(RolloutCommand.IssueOp::kind).distinct().toList();
    }

    @Test
    void aFailedDevicePrecheckLeavesTheDeviceOutTheOtherPrechecksRunAndTheRolloutEndsFailedAtTheEnd() {
        MachineDriver d = new MachineDriver(spec().maxParallel(2).maxFailures(1).build(),
                MachineDriver.inventory(1, groups("canary", 3)));
        d.feed(LEADER_1);
        d.feed(START);
        d.succeed("node-1");
        assertThat(d.issuedNames()).containsExactly("canary-01", "canary-02");
        InFlightOp other = d.inFlight("canary-02");
        d.report("canary-01", OpStatus.FAILED);
        // Nothing is cancelled: the pool refills with the next precheck.
        assertThat(d.last.commandsOf(RolloutCommand.CancelOp.class)).isEmpty();
        assertThat(d.issuedNames()).containsExactly("canary-03");
        assertThat(d.state.inFlight()).contains(other);
        assertThat(d.state.phase()).isEqualTo(Phase.PRECHECKS);
        TargetRecord failed = d.state.record(TargetRef.device("canary-01")).orElseThrow();
        assertThat(failed.status()).isEqualTo(TargetStatus.FAILED);
        assertThat(failed.failedPrecheck()).isTrue();
        assertThat(failed.message()).contains("precheck failed: agent reported failure");
        assertThat(d.last.commandsOf(RolloutCommand.Emit.class)).anySatisfy(e -> {
            assertThat(e.notice().kind()).isEqualTo(Notice.Kind.TARGET_FAILED);
            assertThat(e.notice().message()).isEqualTo("device/canary-01 precheck failed: agent reported failure; left out of the upgrade");
        });
        assertThat(d.state.deviceFailures()).as("a failed precheck is not an upgrade failure").isZero();

        d.succeed("canary-02");
        d.succeed("canary-03");
        assertThat(d.state.phase()).isEqualTo(Phase.NODES);
        d.succeed("node-1");
        d.succeed("services");
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        assertThat(d.issuedNames()).as("the failed device is left out").containsExactly("canary-02", "canary-03");
        d.succeedAllInFlight();
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
        assertThat(d.state.reason()).contains("every stage finished, but 1 device(s) failed their precheck and were left "
                + "out of the upgrade: device/canary-01");
        assertThat(d.state.precheckFailures()).extracting(TargetRecord::target).containsExactly(TargetRef.device("canary-01"));
        assertThat(d.status(TargetRef.device("canary-02"))).isEqualTo(TargetStatus.SUCCEEDED);
        assertThat(d.status(TargetRef.device("canary-03"))).isEqualTo(TargetStatus.SUCCEEDED);
    }

    @Test
    void aFailedDevicePrecheckIsCountedAsAPrecheckFailureNotAgainstMaxFailuresTheOthersGoOnAndTheRolloutEndsFailed() {
        // Item 12 of issue 27, as Venice: with the default maxFailures 0 a failed precheck neither halts nor
        // stops the other prechecks; the device is left out and the rollout ends FAILED.
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(2).build(),
                MachineDriver.inventory(0, groups("canary", 3)));
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01", "canary-02");
        d.report("canary-01", OpStatus.FAILED);
        assertThat(d.noticeKinds()).doesNotContain(Notice.Kind.HALTING);
        assertThat(d.issuedNames()).as("the rest are still prechecked").containsExactly("canary-03");
        assertThat(d.state.deviceFailures()).isZero();
        assertThat(d.state.precheckFailures()).extracting(TargetRecord::target).containsExactly(TargetRef.device("canary-01"));
        d.succeed("canary-02");
        d.succeed("canary-03");
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        assertThat(d.issuedNames()).containsExactly("canary-02", "canary-03");
        d.succeedAllInFlight();
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
        assertThat(d.state.reason()).contains("every stage finished, but 1 device(s) failed their precheck and were left "
                + "out of the upgrade: device/canary-01");
        assertThat(d.state.deviceFailures()).isZero();
        assertThat(d.status(TargetRef.device("canary-02"))).isEqualTo(TargetStatus.SUCCEEDED);
        assertThat(d.status(TargetRef.device("canary-03"))).isEqualTo(TargetStatus.SUCCEEDED);
    }

    @Test
    void aTimedOutDevicePrecheckIsAFailedPrecheck() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1).maxFailures(3)
                .timeouts(new OpTimeouts(Duration.ofMinutes(30), Duration.ofMinutes(30), Duration.ofMinutes(5))).build(),
                MachineDriver.inventory(0, groups("canary", 2)));
        d.feed(START);
        d.tick(Duration.ofMinutes(5));
        TargetRecord r = d.state.record(TargetRef.device("canary-01")).orElseThrow();
        assertThat(r.failedPrecheck()).isTrue();
        assertThat(r.message()).contains("precheck failed: timed out after PT5M");
        assertThat(d.issuedNames()).containsExactly("canary-02");
    }

    @Test
    void devicePrechecksGoGroupByGroupInSelectorOrderNotNameOrder() {
        Inventory inventory = new Inventory(List.of(
                Target.device("a1", "1.0", Map.of("tier", "edge")),
                Target.device("a2", "1.0", Map.of("tier", "edge")),
                Target.device("b1", "1.0", Map.of("tier", "canary")),
                Target.device("c1", "1.0", Map.of())));
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(3).build(), inventory);
        d.feed(START);
        assertThat(d.issuedNames()).as("the canary group is prechecked first").containsExactly("b1");
        assertThat(kinds(d)).containsExactly(OpKind.PRECHECK);
        d.succeed("b1");
        assertThat(d.issuedNames()).containsExactly("a1", "a2");
        assertThat(d.noticeKinds()).contains(Notice.Kind.GROUP_FINISHED);
        d.succeed("a2");
        assertThat(d.issued()).as("the unmatched group waits for the edge group").isEmpty();
        d.succeed("a1");
        assertThat(d.issuedNames()).containsExactly("c1");
        d.succeed("c1");
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        assertThat(d.issuedNames()).containsExactly("b1");
        assertThat(kinds(d)).containsExactly(OpKind.UPGRADE);
    }

    @Test
    void exponentialPrechecksRampUpAndRestartInEachGroup() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).strategy(DeviceStrategy.EXPONENTIAL)
                .maxParallel(3).build(), MachineDriver.inventory(0, groups("canary", 4, "edge", 2)));
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-02", "canary-03");
        d.succeed("canary-02");
        assertThat(d.issued()).as("a batch starts when the previous one finished").isEmpty();
        d.succeed("canary-03");
        assertThat(d.issuedNames()).containsExactly("canary-04");
        d.succeed("canary-04");
        assertThat(d.issuedNames()).as("the ramp restarts in the next group").containsExactly("edge-01");
        d.succeed("edge-01");
        assertThat(d.issuedNames()).containsExactly("edge-02");
        d.succeed("edge-02");
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        assertThat(d.state.deviceGroup()).isZero();
        assertThat(d.issuedNames()).as("upgrades ramp from the start again").containsExactly("canary-01");
    }

    @Test
    void anUnhealthyNodeFailsThePrecheckStageByNameBeforeAnyPrecheckOp() {
        Inventory inventory = new Inventory(List.of(Target.node("node-1", "1.0"),
                Target.node("node-2", "1.0").withHealth(true, false), Target.node("node-3", "1.0").withHealth(false, true),
                Target.device("canary-01", "1.0", Map.of("tier", "canary"))));
        MachineDriver d = new MachineDriver(spec().build(), inventory);
        d.feed(LEADER_1);
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
        assertThat(d.issued()).isEmpty();
        assertThat(d.state.reason()).contains("precheck stage failed: node node-2 is not healthy");
        assertThat(d.state.reason().orElseThrow()).doesNotContain("node-3");
        assertThat(d.status(TargetRef.node("node-2"))).isEqualTo(TargetStatus.FAILED);
        assertThat(d.status(TargetRef.node("node-3"))).isEqualTo(TargetStatus.SKIPPED);
        assertThat(d.status(TargetRef.node("node-1"))).isEqualTo(TargetStatus.PENDING);
    }

    @Test
    void aNodeThatHasNotJoinedTheClusterIsLeftOutOfTheNodePrechecksAndTheRolloutGoesOn() {
        // Item 13 of issue 27, as Venice: the node is left out (SKIPPED, so not upgraded either), not a failure.
        Target outsider = Target.node("node-2", "1.0").withHealth(false, true);
        Inventory inventory = new Inventory(List.of(Target.node("node-1", "1.0"), outsider,
                Target.device("canary-01", "1.0", Map.of("tier", "canary"))));
        MachineDriver d = new MachineDriver(spec().build(), inventory);
        assertThat(d.state.record(outsider.ref()).orElseThrow().message())
                .contains("not admitted to the cluster: left out of the node prechecks");
        d.feed(LEADER_1);
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.PRECHECKS);
        assertThat(d.issuedNames()).containsExactly("node-1");
        d.succeed("node-1");
        d.succeed("canary-01");
        assertThat(d.state.phase()).isEqualTo(Phase.NODES);
        assertThat(d.issuedNames()).containsExactly("node-1");
        d.succeed("node-1");
        d.succeed("services");
        d.succeed("canary-01");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(d.status(outsider.ref())).isEqualTo(TargetStatus.SKIPPED);
        RolloutPlan plan = RolloutPlanner.plan(spec().build(), inventory);
        assertThat(plan.skipped()).containsExactly(new RolloutPlan.Skipped(outsider.ref(),
                "not admitted to the cluster: left out of the node prechecks"));
        assertThat(plan.warnings()).isEmpty();
    }

    @Test
    void anUnhealthyDeviceIsSkippedAndTheRolloutEndsFailed() {
        // Item 14 of issue 27, as Venice: the device fails as skipped; the others are upgraded; the result is FAILURE.
        Target sick = Target.device("canary-02", "1.0", Map.of("tier", "canary")).withHealth(true, false);
        Inventory inventory = new Inventory(List.of(Target.device("canary-01", "1.0", Map.of("tier", "canary")), sick));
        MachineDriver d = new MachineDriver(spec().prechecks(false).upgradeControlPlane(false).maxParallel(2).build(), inventory);
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        d.succeed("canary-01");
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
        assertThat(d.state.reason()).contains("every stage finished, but 1 device(s) were skipped as not healthy: device/canary-02");
        assertThat(d.status(sick.ref())).isEqualTo(TargetStatus.SKIPPED);
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.SUCCEEDED);
    }

    @Test
    void withoutPrechecksNodeHealthIsNotChecked() {
        Inventory inventory = new Inventory(List.of(Target.node("node-1", "1.0").withHealth(true, false)));
        MachineDriver d = new MachineDriver(spec().prechecks(false).build(), inventory);
        d.feed(LEADER_1);
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.NODES);
        assertThat(d.issuedNames()).containsExactly("node-1");
    }

    @Test
    void devicesThatAreNotAdmittedOrNotHealthyAreSkippedWithTheReasonAndRejoinWhenFitAgain() {
        Target sick = Target.device("canary-02", "1.0", Map.of("tier", "canary")).withHealth(true, false);
        Target outsider = Target.device("canary-03", "1.0", Map.of("tier", "canary")).withHealth(false, true);
        Inventory inventory = new Inventory(List.of(Target.device("canary-01", "1.0", Map.of("tier", "canary")), sick, outsider,
                Target.device("edge-01", "1.0", Map.of("tier", "edge"))));
        MachineDriver d = new MachineDriver(spec().prechecks(false).upgradeControlPlane(false).maxParallel(1).build(), inventory);
        assertThat(d.state.record(sick.ref()).orElseThrow().message()).contains("not healthy");
        assertThat(d.state.record(outsider.ref()).orElseThrow().message()).contains("not admitted to the cluster");
        assertThat(d.status(sick.ref())).isEqualTo(TargetStatus.SKIPPED);
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        // canary-02 recovers while its group still runs: it joins; canary-03 stays out.
        d.feed(new RolloutEvent.InventoryChanged(new Inventory(List.of(inventory.targets().get(0), sick.withHealth(true, true),
                outsider, inventory.targets().get(3)))));
        assertThat(d.status(sick.ref())).isEqualTo(TargetStatus.PENDING);
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-02");
        d.succeed("canary-02");
        assertThat(d.issuedNames()).containsExactly("edge-01");
        d.succeed("edge-01");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(d.status(outsider.ref())).isEqualTo(TargetStatus.SKIPPED);
    }

    @Test
    void aDeviceJoiningAGroupWhosePrechecksAreDoneIsSkipped() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(2).build(),
                MachineDriver.inventory(0, groups("canary", 1, "edge", 1)));
        d.feed(START);
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("edge-01");
        List<Target> grown = new java.util.ArrayList<>(d.state.inventory().targets());
        grown.add(Target.device("canary-02", "1.0", Map.of("tier", "canary")));
        grown.add(Target.device("edge-02", "1.0", Map.of("tier", "edge")));
        d.feed(new RolloutEvent.InventoryChanged(new Inventory(grown)));
        assertThat(d.state.record(TargetRef.device("canary-02")).orElseThrow().message())
                .contains("joined after its device group's prechecks");
        assertThat(d.status(TargetRef.device("canary-02"))).isEqualTo(TargetStatus.SKIPPED);
        assertThat(d.issuedNames()).as("edge-02 joins the group being prechecked").containsExactly("edge-02");
    }
}
