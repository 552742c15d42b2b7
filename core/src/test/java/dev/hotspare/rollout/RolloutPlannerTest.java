package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutPlanner.RolloutPlan;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutSpec.UnmatchedDevices;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RolloutPlannerTest {

    private static final Instant START = Instant.parse("2026-01-01T22:00:00Z");

    private static Inventory inventory() {
        return new Inventory(List.of(
                Target.node("node-b", "1.0"), Target.node("node-a", "1.0"), Target.node("node-c", "2.0"),
                Target.device("e-2", "1.0", Map.of("tier", "edge")),
                Target.device("c-1", "1.0", Map.of("tier", "canary")),
                Target.device("e-1", "1.0", Map.of("tier", "edge")),
                Target.device("e-3", "1.0", Map.of("tier", "edge")),
                Target.device("e-4", "1.0", Map.of("tier", "edge")),
                Target.device("x-1", "1.0", Map.of())));
    }

    @Test
    void stagesComeInOrderWithTargetsInNameOrder() {
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").deviceGroup("tier", "edge")
                .prechecks(true).maxParallel(3).window(MaintenanceWindow.from(START)).build();
        RolloutPlan plan = RolloutPlanner.plan(spec, inventory());
        // Device prechecks follow the upgrade's groups: one precheck stage per group, in selector order.
        assertThat(plan.stages()).extracting(RolloutPlan.Stage::kind).containsExactly(
                RolloutPlan.StageKind.PRECHECK_NODES, RolloutPlan.StageKind.PRECHECK_DEVICES,
                RolloutPlan.StageKind.PRECHECK_DEVICES, RolloutPlan.StageKind.PRECHECK_DEVICES,
                RolloutPlan.StageKind.WAIT_FOR_WINDOW, RolloutPlan.StageKind.NODES, RolloutPlan.StageKind.SERVICES,
                RolloutPlan.StageKind.DEVICE_GROUP, RolloutPlan.StageKind.DEVICE_GROUP, RolloutPlan.StageKind.DEVICE_GROUP);
        assertThat(plan.stages().get(1).name()).isEqualTo("precheck group 1: tier=canary");
        assertThat(plan.stages().get(2).targets()).extracting(TargetRef::name).containsExactly("e-1", "e-2", "e-3", "e-4");
        assertThat(plan.stages().get(5).targets()).containsExactly(TargetRef.node("node-a"), TargetRef.node("node-b"));
        assertThat(plan.stages().get(8).targets()).extracting(TargetRef::name).containsExactly("e-1", "e-2", "e-3", "e-4");
        assertThat(plan.stages().get(9).name()).contains("unmatched");
        assertThat(plan.skipped()).containsExactly(new RolloutPlan.Skipped(TargetRef.node("node-c"), "already at version 2.0"));
        assertThat(plan.windowFit()).isEqualTo(RolloutPlan.WindowFit.OPEN_ENDED);
    }

    @Test
    void linearRoundsUseThePoolAndDurationsUseTheTimeouts() {
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").deviceGroup("tier", "edge")
                .maxParallel(3).timeouts(new OpTimeouts(Duration.ofMinutes(10), Duration.ofMinutes(20), Duration.ofMinutes(5))).build();
        RolloutPlan plan = RolloutPlanner.plan(spec, inventory());
        RolloutPlan.Stage edge = plan.stages().stream().filter(s -> s.name().contains("tier=edge")).findFirst().orElseThrow();
        assertThat(edge.rounds()).isEqualTo(2);
        assertThat(edge.parallelism()).isEqualTo(3);
        assertThat(edge.batches()).isEmpty();
        // nodes 2×10 + services 20 + canary 1×5 + edge 2×5 + unmatched 1×5
        assertThat(plan.estimate().window()).isEqualTo(Duration.ofMinutes(60));
        assertThat(plan.estimatedRounds()).isEqualTo(2 + 1 + 1 + 2 + 1);
        assertThat(plan.windowFit()).isEqualTo(RolloutPlan.WindowFit.NO_WINDOW);
    }

    @Test
    void exponentialBatchesAreListedAndTheWindowFitIsJudged() {
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(false).deviceGroup("tier", "edge")
                .unmatchedDevices(UnmatchedDevices.SKIP).strategy(DeviceStrategy.EXPONENTIAL).maxParallel(2)
                .timeouts(new OpTimeouts(Duration.ofMinutes(10), Duration.ofMinutes(10), Duration.ofMinutes(10)))
                .window(MaintenanceWindow.between(START, START.plus(Duration.ofMinutes(25)))).build();
        RolloutPlan plan = RolloutPlanner.plan(spec, inventory());
        RolloutPlan.Stage edge = plan.stages().stream().filter(s -> s.kind() == RolloutPlan.StageKind.DEVICE_GROUP).findFirst().orElseThrow();
        assertThat(edge.batches()).containsExactly(List.of("e-1"), List.of("e-2", "e-3"), List.of("e-4"));
        assertThat(plan.estimate().window()).isEqualTo(Duration.ofMinutes(30));
        assertThat(plan.windowFit()).isEqualTo(RolloutPlan.WindowFit.TOO_SHORT);
        assertThat(plan.skipped()).extracting(s -> s.target().name())
                .containsExactlyInAnyOrder("node-a", "node-b", "node-c", "c-1", "x-1");
        RolloutPlan wider = RolloutPlanner.plan(spec.toBuilder()
                .window(MaintenanceWindow.between(START, START.plus(Duration.ofMinutes(30)))).build(), inventory());
        assertThat(wider.windowFit()).isEqualTo(RolloutPlan.WindowFit.FITS);
    }

    @Test
    void thePlanMatchesWhatTheMachineDoes() {
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").deviceGroup("tier", "edge")
                .strategy(DeviceStrategy.EXPONENTIAL).maxParallel(2).build();
        RolloutPlan plan = RolloutPlanner.plan(spec, inventory());
        MachineDriver d = new MachineDriver(spec, inventory());
        d.feed(new RolloutEvent.LeaderChanged(java.util.Optional.of("node-a")));
        d.feed(new RolloutEvent.Start());
        List<List<String>> rounds = new java.util.ArrayList<>();
        while (!d.state.terminal()) {
            rounds.add(d.issuedNames());
            d.succeedAllInFlight();
        }
        List<List<String>> planned = new java.util.ArrayList<>();
        for (RolloutPlan.Stage s : plan.stages()) {
            switch (s.kind()) {
                case NODES -> s.targets().forEach(t -> planned.add(List.of(t.name())));
                case SERVICES -> planned.add(List.of("node-a"));
                case DEVICE_GROUP -> planned.addAll(s.batches());
                default -> { }
            }
        }
        assertThat(rounds).isEqualTo(planned);
    }
}
