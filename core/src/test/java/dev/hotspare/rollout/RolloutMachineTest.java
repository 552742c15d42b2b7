package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutMachine.Decision;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutSpec.UnmatchedDevices;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.RolloutStateJson;
import dev.hotspare.rollout.RolloutState.Suspension;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.Target.TargetKind;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.hotspare.rollout.MachineDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

class RolloutMachineTest {

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
        return RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").deviceGroup("tier", "edge");
    }

    /** Runs the control plane to completion (leader node-1). */
    private static MachineDriver throughControlPlane(RolloutSpec spec, Inventory inventory) {
        MachineDriver d = new MachineDriver(spec, inventory);
        d.feed(LEADER_1);
        d.feed(START);
        while (d.state.phase() == Phase.NODES || d.state.phase() == Phase.SERVICES) {
            d.succeedAllInFlight();
        }
        return d;
    }

    @Test
    void nodesGoOneAtATimeInNameOrderThenServicesOnTheLeaderThenDevices() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(3, groups("canary", 1)));
        d.feed(LEADER_1);
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.NODES);
        assertThat(d.issuedNames()).containsExactly("node-1");
        d.succeed("node-1");
        assertThat(d.issuedNames()).containsExactly("node-2");
        d.succeed("node-2");
        assertThat(d.issuedNames()).containsExactly("node-3");
        d.succeed("node-3");
        assertThat(d.state.phase()).isEqualTo(Phase.SERVICES);
        assertThat(d.issued()).singleElement().satisfies(op -> {
            assertThat(op.target()).isEqualTo(TargetRef.servicesOn("node-1"));
            assertThat(op.opId()).isEqualTo("r1:upgrade:services:services:1");
        });
        d.succeed("services");
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        d.succeed("canary-01");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(d.state.targets()).filteredOn(r -> r.target().kind() != TargetKind.SERVICES)
                .allSatisfy(r -> assertThat(r.version()).isEqualTo("2.0"));
    }

    @Test
    void servicesOpWaitsForALeaderAndIsReissuedUnderANewAttemptWhenTheLeaderChanges() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(1, groups("canary", 1)));
        d.feed(START);
        d.succeed("node-1");
        assertThat(d.state.phase()).isEqualTo(Phase.SERVICES);
        assertThat(d.issued()).isEmpty();
        d.feed(new RolloutEvent.LeaderChanged(Optional.of("node-1")));
        InFlightOp first = d.inFlight("services");
        assertThat(first.address()).isEqualTo(TargetRef.servicesOn("node-1"));

        d.feed(new RolloutEvent.LeaderChanged(Optional.of("node-2")));
        assertThat(d.last.commandsOf(RolloutCommand.CancelOp.class))
                .containsExactly(new RolloutCommand.CancelOp(TargetRef.servicesOn("node-1"), first.opId()));
        assertThat(d.issued()).singleElement().satisfies(op -> {
            assertThat(op.target()).isEqualTo(TargetRef.servicesOn("node-2"));
            assertThat(op.attempt()).isEqualTo(2);
        });
        // The old leader finishing late does not count.
        d.feed(new RolloutEvent.AgentReported(first.address(), first.opId(), 1, OpStatus.SUCCEEDED, ""));
        assertThat(d.state.droppedReports()).isEqualTo(1);
        assertThat(d.state.phase()).isEqualTo(Phase.SERVICES);
        d.succeed("services");
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
    }

    @Test
    void servicesOpWithNoLeaderWaitsUntilOneIsElected() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(1, groups("canary", 1)));
        d.feed(LEADER_1);
        d.feed(START);
        d.succeed("node-1");
        d.feed(new RolloutEvent.LeaderChanged(Optional.empty()));
        assertThat(d.state.inFlight()).isEmpty();
        assertThat(d.status(TargetRef.services())).isEqualTo(TargetStatus.PENDING);
        d.feed(new RolloutEvent.LeaderChanged(Optional.of("node-3")));
        assertThat(d.issued()).singleElement().satisfies(op -> assertThat(op.target()).isEqualTo(TargetRef.servicesOn("node-3")));
    }

    @Test
    void aFailedServicesOpEndsTheRolloutFailed() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(1, groups("canary", 2)));
        d.feed(LEADER_1);
        d.feed(START);
        d.succeed("node-1");
        d.fail("services");
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
        assertThat(d.state.reason()).hasValueSatisfying(r -> assertThat(r).contains("services"));
        assertThat(d.state.targets()).filteredOn(r -> r.target().kind() == TargetKind.DEVICE)
                .allSatisfy(r -> assertThat(r.status()).isEqualTo(TargetStatus.PENDING));
    }

    @Test
    void aFailedNodeEndsTheRolloutFailedWithoutTouchingLaterNodes() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(3, groups()));
        d.feed(LEADER_1);
        d.feed(START);
        d.succeed("node-1");
        d.fail("node-2");
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
        assertThat(d.issued()).isEmpty();
        assertThat(d.status(TargetRef.node("node-3"))).isEqualTo(TargetStatus.PENDING);
    }

    @Test
    void prechecksRunOnEveryNodeThenEveryDeviceBeforeAnyUpgrade() {
        MachineDriver d = new MachineDriver(spec().prechecks(true).maxParallel(2).build(),
                MachineDriver.inventory(2, groups("canary", 3)));
        d.feed(LEADER_1);
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.PRECHECKS);
        assertThat(d.issued()).singleElement().satisfies(op -> {
            assertThat(op.kind()).isEqualTo(OpKind.PRECHECK);
            assertThat(op.target().name()).isEqualTo("node-1");
        });
        d.succeed("node-1");
        assertThat(d.issuedNames()).containsExactly("node-2");
        d.succeed("node-2");
        assertThat(d.issuedNames()).containsExactly("canary-01", "canary-02");
        assertThat(d.issued()).allSatisfy(op -> assertThat(op.kind()).isEqualTo(OpKind.PRECHECK));
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-03");
        d.succeed("canary-02");
        d.succeed("canary-03");
        assertThat(d.state.phase()).isEqualTo(Phase.NODES);
        assertThat(d.issued()).singleElement().satisfies(op -> {
            assertThat(op.kind()).isEqualTo(OpKind.UPGRADE);
            assertThat(op.target().name()).isEqualTo("node-1");
        });
    }

    @Test
    void upgradesWaitForTheWindowStartWithAWakeAndNoSleep() {
        Instant start = T0.plus(Duration.ofHours(2));
        MachineDriver d = new MachineDriver(spec().window(MaintenanceWindow.from(start)).build(),
                MachineDriver.inventory(1, groups()));
        d.feed(LEADER_1);
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.WAITING_FOR_WINDOW);
        assertThat(d.issued()).isEmpty();
        assertThat(d.last.commandsOf(RolloutCommand.ScheduleWake.class)).containsExactly(new RolloutCommand.ScheduleWake(start));
        d.tick(Duration.ofHours(1));
        assertThat(d.issued()).isEmpty();
        d.tick(Duration.ofHours(1));
        assertThat(d.state.phase()).isEqualTo(Phase.NODES);
        assertThat(d.issuedNames()).containsExactly("node-1");
    }

    @Test
    void theWindowClosingEndsDeadlineExceededListingTargetsNotStarted() {
        Instant end = T0.plus(Duration.ofMinutes(30));
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1)
                .timeouts(new OpTimeouts(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1)))
                .window(MaintenanceWindow.between(T0, end)).build(), MachineDriver.inventory(0, groups("canary", 3)));
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        d.at(Duration.ofMinutes(10), new RolloutEvent.AgentReported(TargetRef.device("canary-01"),
                d.inFlight("canary-01").opId(), 1, OpStatus.SUCCEEDED, ""));
        assertThat(d.issuedNames()).containsExactly("canary-02");
        d.tick(Duration.ofMinutes(20));
        // canary-02 is still running: the window closed, it may finish, nothing new starts.
        assertThat(d.state.windowClosed()).isTrue();
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        d.succeed("canary-02");
        assertThat(d.state.phase()).isEqualTo(Phase.DEADLINE_EXCEEDED);
        assertThat(d.state.notStarted()).containsExactly(TargetRef.device("canary-03"));
        assertThat(d.status(TargetRef.device("canary-02"))).isEqualTo(TargetStatus.SUCCEEDED);
    }

    @Test
    void aWindowThatClosedBeforeTheStartLeavesEverythingNotStarted() {
        MachineDriver d = new MachineDriver(spec().window(MaintenanceWindow.between(T0, T0.plusSeconds(60))).build(),
                MachineDriver.inventory(2, groups("canary", 1)));
        d.now = T0.plusSeconds(120);
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.DEADLINE_EXCEEDED);
        assertThat(d.state.notStarted()).containsExactly(TargetRef.node("node-1"), TargetRef.node("node-2"),
                TargetRef.services(), TargetRef.device("canary-01"));
    }

    @Test
    void failedDevicesAreRetriedAfterTheDelayViaWakeAndTick() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1).maxFailures(5)
                .retry(3, Duration.ofMinutes(5)).build(), MachineDriver.inventory(0, groups("canary", 2)));
        d.feed(START);
        d.fail("canary-01");
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.RETRY_WAIT);
        assertThat(d.issued()).as("the retrying device keeps its worker slot").isEmpty();
        assertThat(d.last.commandsOf(RolloutCommand.ScheduleWake.class))
                .containsExactly(new RolloutCommand.ScheduleWake(T0.plus(Duration.ofMinutes(5))));
        d.tick(Duration.ofMinutes(4));
        assertThat(d.issued()).isEmpty();
        d.tick(Duration.ofMinutes(1));
        assertThat(d.issued()).singleElement().satisfies(op -> {
            assertThat(op.attempt()).isEqualTo(2);
            assertThat(op.opId()).isEqualTo("r1:upgrade:device:canary-01:2");
        });
        d.fail("canary-01");
        d.tick(Duration.ofMinutes(5));
        d.fail("canary-01");
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.FAILED);
        assertThat(d.state.deviceFailures()).isEqualTo(1);
        assertThat(d.issuedNames()).containsExactly("canary-02");
    }

    @Test
    void noRetryIsScheduledOutsideTheWindow() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1).maxFailures(5)
                .retry(3, Duration.ofMinutes(10)).window(MaintenanceWindow.between(T0, T0.plus(Duration.ofMinutes(15))))
                .build(), MachineDriver.inventory(0, groups("canary", 2)));
        d.feed(START);
        d.at(Duration.ofMinutes(6), failReport(d, "canary-01"));
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.FAILED);
        assertThat(d.state.record(TargetRef.device("canary-01")).orElseThrow().message())
                .hasValueSatisfying(m -> assertThat(m).doesNotContain("retry at"));
    }

    private static RolloutEvent failReport(MachineDriver d, String name) {
        InFlightOp op = d.inFlight(name);
        return new RolloutEvent.AgentReported(op.address(), op.opId(), op.attempt(), OpStatus.FAILED, "boom");
    }

    @Test
    void exceedingMaxFailuresHaltsLetsInFlightFinishAndEndsFailed() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(3).maxFailures(1).build(),
                MachineDriver.inventory(0, groups("canary", 6)));
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01", "canary-02", "canary-03");
        d.fail("canary-01");
        assertThat(d.issuedNames()).as("one failure is tolerated").containsExactly("canary-04");
        d.fail("canary-02");
        assertThat(d.issued()).isEmpty();
        assertThat(d.noticeKinds()).contains(Notice.Kind.HALTING);
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        d.succeed("canary-03");
        assertThat(d.issued()).isEmpty();
        d.succeed("canary-04");
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
        assertThat(d.status(TargetRef.device("canary-04"))).isEqualTo(TargetStatus.SUCCEEDED);
        assertThat(d.status(TargetRef.device("canary-05"))).isEqualTo(TargetStatus.PENDING);
    }

    @Test
    void failuresWithinMaxFailuresStillSucceed() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1).maxFailures(1).build(),
                MachineDriver.inventory(0, groups("canary", 2)));
        d.feed(START);
        d.fail("canary-01");
        d.succeed("canary-02");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(d.state.reason()).hasValueSatisfying(r -> assertThat(r).contains("1 device failure"));
    }

    @Test
    void linearKeepsAPoolOfMaxParallelInNameOrder() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(3).build(),
                MachineDriver.inventory(0, groups("canary", 5)));
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01", "canary-02", "canary-03");
        d.succeed("canary-02");
        assertThat(d.issuedNames()).containsExactly("canary-04");
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-05");
        assertThat(d.state.inFlight()).hasSize(3);
    }

    @Test
    void exponentialBatchesDoubleUpToTheCapAndRestartInEachGroup() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).strategy(DeviceStrategy.EXPONENTIAL)
                .maxParallel(3).build(), MachineDriver.inventory(0, groups("canary", 7, "edge", 2)));
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-02", "canary-03");
        d.succeed("canary-02");
        assertThat(d.issued()).as("a batch starts only when the previous one finished").isEmpty();
        d.succeed("canary-03");
        assertThat(d.issuedNames()).containsExactly("canary-04", "canary-05", "canary-06");
        d.succeedAllInFlight();
        assertThat(d.issuedNames()).containsExactly("canary-07");
        d.succeed("canary-07");
        assertThat(d.issuedNames()).as("ramp restarts in the next group").containsExactly("edge-01");
        d.succeed("edge-01");
        assertThat(d.issuedNames()).containsExactly("edge-02");
        d.succeed("edge-02");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
    }

    @Test
    void groupsFollowSelectorOrderFirstMatchWinsAndUnmatchedGoLast() {
        Inventory inv = new Inventory(List.of(
                Target.device("a-unmatched", "1.0", Map.of()),
                Target.device("b-edge", "1.0", Map.of("tier", "edge")),
                Target.device("c-both", "1.0", Map.of("tier", "canary", "zone", "x")),
                Target.device("d-canary", "1.0", Map.of("tier", "canary"))));
        RolloutSpec s = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(false).maxParallel(10)
                .deviceGroup("zone", "x").deviceGroup("tier", "canary").deviceGroup("tier", "edge").build();
        MachineDriver d = new MachineDriver(s, inv);
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("c-both");
        d.succeedAllInFlight();
        assertThat(d.issuedNames()).containsExactly("d-canary");
        d.succeedAllInFlight();
        assertThat(d.issuedNames()).containsExactly("b-edge");
        d.succeedAllInFlight();
        assertThat(d.issuedNames()).containsExactly("a-unmatched");
        d.succeedAllInFlight();
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
    }

    @Test
    void unmatchedDevicesCanBeSkippedAndTargetsAlreadyOnTheVersionAreSkipped() {
        Inventory inv = new Inventory(List.of(
                Target.device("a", "1.0", Map.of()),
                Target.device("b", "2.0", Map.of("tier", "canary")),
                Target.device("c", "1.0", Map.of("tier", "canary"))));
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).unmatchedDevices(UnmatchedDevices.SKIP).build(), inv);
        assertThat(d.status(TargetRef.device("a"))).isEqualTo(TargetStatus.SKIPPED);
        assertThat(d.status(TargetRef.device("b"))).isEqualTo(TargetStatus.SKIPPED);
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("c");
        d.succeed("c");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
    }

    @Test
    void controlPlaneOffUpgradesDevicesOnly() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).build(), MachineDriver.inventory(2, groups("canary", 1)));
        d.feed(START);
        assertThat(d.state.phase()).isEqualTo(Phase.DEVICES);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        assertThat(d.status(TargetRef.node("node-1"))).isEqualTo(TargetStatus.SKIPPED);
        assertThat(d.status(TargetRef.services())).isEqualTo(TargetStatus.SKIPPED);
    }

    @Test
    void suspendTakesEffectAtTheBatchBoundaryAndResumeContinuesFromThere() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).strategy(DeviceStrategy.EXPONENTIAL)
                .maxParallel(4).build(), MachineDriver.inventory(0, groups("canary", 6)));
        d.feed(START);
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-02", "canary-03");
        d.feed(new RolloutEvent.Suspend());
        assertThat(d.state.suspension()).isEqualTo(Suspension.REQUESTED);
        d.succeed("canary-02");
        assertThat(d.state.suspension()).isEqualTo(Suspension.REQUESTED);
        d.succeed("canary-03");
        assertThat(d.state.suspension()).isEqualTo(Suspension.SUSPENDED);
        assertThat(d.issued()).isEmpty();
        d.tick(Duration.ofHours(5));
        assertThat(d.issued()).isEmpty();
        d.feed(new RolloutEvent.Resume());
        assertThat(d.state.suspension()).isEqualTo(Suspension.NONE);
        assertThat(d.issuedNames()).containsExactly("canary-04", "canary-05", "canary-06");
    }

    @Test
    void suspendWhileNodesRunLetsTheCurrentNodeFinish() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(3, groups()));
        d.feed(LEADER_1);
        d.feed(START);
        d.feed(new RolloutEvent.Suspend());
        d.succeed("node-1");
        assertThat(d.status(TargetRef.node("node-1"))).isEqualTo(TargetStatus.SUCCEEDED);
        assertThat(d.state.suspension()).isEqualTo(Suspension.SUSPENDED);
        assertThat(d.issued()).isEmpty();
        d.feed(new RolloutEvent.Resume());
        assertThat(d.issuedNames()).containsExactly("node-2");
    }

    @Test
    void abortCancelsInFlightOpsAndDropsTheirLateReports() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(2).build(),
                MachineDriver.inventory(0, groups("canary", 3)));
        d.feed(START);
        InFlightOp op1 = d.inFlight("canary-01");
        d.feed(new RolloutEvent.Abort());
        assertThat(d.state.phase()).isEqualTo(Phase.ABORTED);
        assertThat(d.last.commandsOf(RolloutCommand.CancelOp.class)).extracting(c -> c.target().name())
                .containsExactly("canary-01", "canary-02");
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.CANCELLED);
        d.feed(new RolloutEvent.AgentReported(op1.address(), op1.opId(), 1, OpStatus.SUCCEEDED, ""));
        assertThat(d.state.droppedReports()).isEqualTo(1);
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.CANCELLED);
        assertThat(d.last.commands()).extracting(c -> c.getClass().getSimpleName()).containsExactly("Emit");
    }

    @Test
    void anOpPastItsDeadlineIsCancelledAndCountsAsAFailure() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1).maxFailures(3)
                .timeouts(new OpTimeouts(Duration.ofMinutes(30), Duration.ofMinutes(30), Duration.ofMinutes(10))).build(),
                MachineDriver.inventory(0, groups("canary", 2)));
        d.feed(START);
        assertThat(d.last.commandsOf(RolloutCommand.ScheduleWake.class))
                .containsExactly(new RolloutCommand.ScheduleWake(T0.plus(Duration.ofMinutes(10))));
        InFlightOp op = d.inFlight("canary-01");
        d.tick(Duration.ofMinutes(10));
        assertThat(d.last.commandsOf(RolloutCommand.CancelOp.class)).containsExactly(new RolloutCommand.CancelOp(op.address(), op.opId()));
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.FAILED);
        assertThat(d.issuedNames()).containsExactly("canary-02");
        // A report arriving exactly at the deadline loses to the deadline, whichever is processed first.
        d.feed(new RolloutEvent.AgentReported(op.address(), op.opId(), 1, OpStatus.SUCCEEDED, ""));
        assertThat(d.state.droppedReports()).isEqualTo(1);
    }

    @Test
    void duplicateStaleAndUnissuedReportsAreDroppedAndCounted() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1).maxFailures(5)
                .retry(2, Duration.ZERO).build(), MachineDriver.inventory(0, groups("canary", 2)));
        d.feed(START);
        InFlightOp attempt1 = d.inFlight("canary-01");
        assertThat(attempt1.opId()).isEqualTo(RolloutMachine.opId("r1", TargetRef.device("canary-01"), OpKind.UPGRADE, 1));
        d.fail("canary-01");
        InFlightOp attempt2 = d.inFlight("canary-01");
        assertThat(attempt2.attempt()).isEqualTo(2);
        d.feed(new RolloutEvent.AgentReported(attempt1.address(), attempt1.opId(), 1, OpStatus.SUCCEEDED, "late"));
        assertThat(d.noticeKinds()).containsExactly(Notice.Kind.REPORT_DROPPED);
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.RUNNING);
        d.succeed("canary-01");
        RolloutState afterSuccess = d.state;
        d.feed(new RolloutEvent.AgentReported(attempt2.address(), attempt2.opId(), 2, OpStatus.FAILED, "duplicate"));
        d.feed(new RolloutEvent.AgentReported(TargetRef.device("canary-02"), "r1:upgrade:device:canary-02:7", 7, OpStatus.SUCCEEDED, ""));
        d.feed(new RolloutEvent.AgentReported(TargetRef.device("ghost"), "x", 1, OpStatus.SUCCEEDED, ""));
        assertThat(d.state.droppedReports()).isEqualTo(4);
        assertThat(d.state.targets()).isEqualTo(afterSuccess.targets());
    }

    @Test
    void inventoryChangesCancelRemovedTargetsAndAddNewDevicesToTheirGroup() {
        MachineDriver d = new MachineDriver(spec().upgradeControlPlane(false).maxParallel(1).build(),
                MachineDriver.inventory(0, groups("canary", 2, "edge", 1)));
        d.feed(START);
        InFlightOp op = d.inFlight("canary-01");
        Inventory next = new Inventory(List.of(
                Target.device("canary-02", "1.0", Map.of("tier", "canary")),
                Target.device("canary-00", "1.0", Map.of("tier", "canary")),
                Target.device("edge-01", "1.0", Map.of("tier", "edge"))));
        d.feed(new RolloutEvent.InventoryChanged(next));
        assertThat(d.last.commandsOf(RolloutCommand.CancelOp.class)).containsExactly(new RolloutCommand.CancelOp(op.address(), op.opId()));
        assertThat(d.status(TargetRef.device("canary-01"))).isEqualTo(TargetStatus.REMOVED);
        assertThat(d.issuedNames()).containsExactly("canary-00");
        d.succeed("canary-00");
        d.succeed("canary-02");
        // A device joining a group that already finished is skipped, not silently forgotten.
        Inventory late = new Inventory(List.of(
                Target.device("canary-02", "1.0", Map.of("tier", "canary")),
                Target.device("canary-00", "1.0", Map.of("tier", "canary")),
                Target.device("canary-09", "1.0", Map.of("tier", "canary")),
                Target.device("edge-01", "1.0", Map.of("tier", "edge"))));
        d.feed(new RolloutEvent.InventoryChanged(late));
        assertThat(d.status(TargetRef.device("canary-09"))).isEqualTo(TargetStatus.SKIPPED);
        d.succeed("edge-01");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
    }

    @Test
    void terminalStatesIgnoreEverythingButCountReports() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(1, groups()));
        d.feed(new RolloutEvent.Abort());
        RolloutState aborted = d.state;
        for (RolloutEvent e : List.of(START, new RolloutEvent.Suspend(), new RolloutEvent.Resume(), LEADER_1,
                new RolloutEvent.Tick(T0), new RolloutEvent.Abort(), new RolloutEvent.InventoryChanged(Inventory.of()))) {
            d.feed(e);
            assertThat(d.state).isEqualTo(aborted);
            assertThat(d.last.commands()).isEmpty();
        }
    }

    @Test
    void startIsIgnoredOnceStartedAndSuspendBeforeStartSuspendsRightAway() {
        MachineDriver d = new MachineDriver(spec().build(), MachineDriver.inventory(1, groups()));
        d.feed(new RolloutEvent.Suspend());
        d.feed(LEADER_1);
        d.feed(START);
        assertThat(d.state.suspension()).isEqualTo(Suspension.SUSPENDED);
        assertThat(d.issued()).isEmpty();
        RolloutState started = d.state;
        d.feed(START);
        assertThat(d.state).isEqualTo(started);
        d.feed(new RolloutEvent.Resume());
        assertThat(d.issuedNames()).containsExactly("node-1");
    }

    @Test
    void decideNeverMutatesItsInputAndIsDeterministic() {
        MachineDriver d = throughControlPlane(spec().build(), MachineDriver.inventory(2, groups("canary", 3)));
        RolloutState before = d.state;
        String json = RolloutStateJson.write(before);
        Decision a = RolloutMachine.decide(before, new RolloutEvent.Tick(d.now), d.now);
        Decision b = RolloutMachine.decide(before, new RolloutEvent.Tick(d.now), d.now);
        assertThat(a).isEqualTo(b);
        assertThat(RolloutStateJson.write(before)).isEqualTo(json);
    }
}
