package dev.hotspare.rollout;

import dev.hotspare.json.Documents;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutPlanner.RolloutPlan;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.MaxParallel;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.hotspare.rollout.MachineDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The device timeout scaled with parallelism (as Venice does), percentages of a group, retries with no failure budget. */
class TimeoutsAndParallelismTest {

    private static Inventory devices(int n) {
        List<Target> targets = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            targets.add(Target.device(String.format("d-%02d", i), "1.0", Map.of()));
        }
        return new Inventory(targets);
    }

    private static Duration firstDeviceTimeout(RolloutSpec spec, Inventory inventory) {
        MachineDriver d = new MachineDriver(spec, inventory);
        d.feed(new RolloutEvent.Start());
        InFlightOp op = d.state.inFlight().get(0);
        return Duration.between(op.issuedAt(), op.deadline());
    }

    @Test
    void deviceOperationTimeoutWithParallelismScalesTheBaseByTheTensOfMaxParallelWithoutACap() {
        // Item 16 of issue 27: Venice's 480 s × floor(maxParallel / 10), never below the base, never capped.
        assertThat(OpTimeouts.scaledDevice(1)).isEqualTo(Duration.ofSeconds(480));
        assertThat(OpTimeouts.scaledDevice(19)).isEqualTo(Duration.ofSeconds(480));
        assertThat(OpTimeouts.scaledDevice(20)).isEqualTo(Duration.ofSeconds(960));
        assertThat(OpTimeouts.scaledDevice(29)).isEqualTo(Duration.ofSeconds(960));
        assertThat(OpTimeouts.scaledDevice(30)).isEqualTo(Duration.ofSeconds(1440));
        assertThat(OpTimeouts.scaledDevice(35)).isEqualTo(Duration.ofSeconds(1440));
        assertThat(OpTimeouts.scaledDevice(40)).isEqualTo(Duration.ofSeconds(1920));
        assertThat(OpTimeouts.scaledDevice(100)).isEqualTo(Duration.ofSeconds(4800));
        RolloutSpec.Builder base = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(false);
        assertThat(firstDeviceTimeout(base.maxParallel(19).build(), devices(100))).isEqualTo(Duration.ofSeconds(480));
        assertThat(firstDeviceTimeout(base.maxParallel(30).build(), devices(100))).isEqualTo(Duration.ofSeconds(1440));
        assertThat(firstDeviceTimeout(base.maxParallel(40).build(), devices(100))).isEqualTo(Duration.ofSeconds(1920));
        assertThat(firstDeviceTimeout(base.maxParallel(100).build(), devices(100))).isEqualTo(Duration.ofSeconds(4800));
    }

    @Test
    void anExplicitDeviceTimeoutIsKeptWhateverTheParallelism() {
        RolloutSpec spec = Documents.read("{name: r1, targetVersion: '2.0', upgradeControlPlane: false, maxParallel: 35,"
                + " timeouts: {device: PT5M}}", Documents.Format.YAML, RolloutSpec.class);
        assertThat(firstDeviceTimeout(spec, devices(40))).isEqualTo(Duration.ofMinutes(5));
        RolloutPlan plan = RolloutPlanner.plan(spec, devices(40));
        assertThat(plan.stages()).singleElement().satisfies(s -> assertThat(s.opTimeout()).isEqualTo(Duration.ofMinutes(5)));
        RolloutSpec scaled = Documents.read("{name: r1, targetVersion: '2.0', maxParallel: 35}", Documents.Format.YAML, RolloutSpec.class);
        assertThat(scaled.timeouts().device()).isEmpty();
        assertThat(RolloutPlanner.plan(scaled, devices(40)).stages()).filteredOn(s -> s.kind() == RolloutPlan.StageKind.DEVICE_GROUP)
                .singleElement().satisfies(s -> assertThat(s.opTimeout()).isEqualTo(Duration.ofSeconds(1440)));
    }

    @Test
    void aPercentageIsAShareOfEachGroupRoundedDownAndAtLeastOne() {
        assertThat(MaxParallel.percentOfGroup(25).forGroup(3)).isEqualTo(1);
        assertThat(MaxParallel.percentOfGroup(25).forGroup(8)).isEqualTo(2);
        assertThat(MaxParallel.percentOfGroup(25).forGroup(11)).isEqualTo(2);
        assertThat(MaxParallel.percentOfGroup(100).forGroup(7)).isEqualTo(7);
        assertThat(MaxParallel.of(4).forGroup(1)).isEqualTo(4);
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(false).deviceGroup("tier", "canary")
                .deviceGroup("tier", "edge").maxParallel(MaxParallel.parse("25%")).build();
        MachineDriver d = new MachineDriver(spec, MachineDriver.inventory(0, Map.of("canary", 3, "edge", 8)));
        d.feed(new RolloutEvent.Start());
        assertThat(d.issuedNames()).containsExactly("canary-01");
        d.succeed("canary-01");
        d.succeed("canary-02");
        d.succeed("canary-03");
        assertThat(d.issuedNames()).as("25% of 8").containsExactly("edge-01", "edge-02");
        RolloutPlan plan = RolloutPlanner.plan(spec, MachineDriver.inventory(0, Map.of("canary", 3, "edge", 8)));
        assertThat(plan.stages()).extracting(RolloutPlan.Stage::parallelism).containsExactly(1, 2);
        assertThat(plan.stages()).extracting(RolloutPlan.Stage::rounds).containsExactly(3, 4);
    }

    @Test
    void maxParallelReadsANumberOrAPercentageAndWritesItBack() {
        RolloutSpec spec = Documents.read("{name: r1, targetVersion: '2.0', maxParallel: '25%'}", Documents.Format.YAML, RolloutSpec.class);
        assertThat(spec.maxParallel()).isEqualTo(MaxParallel.percentOfGroup(25));
        assertThat(Documents.toJsonLine(spec)).contains("\"maxParallel\":\"25%\"");
        assertThat(Documents.read(Documents.toJson(spec), Documents.Format.JSON, RolloutSpec.class)).isEqualTo(spec);
        assertThat(Documents.toJsonLine(RolloutSpec.builder("r1", "2.0").build())).contains("\"maxParallel\":2");
        ValidationException e = catchThrowableOfType(ValidationException.class, () -> Documents.read(
                "{name: r1, targetVersion: '2.0', maxParallel: '0%', maxFailures: -1, deviceOrder: ['tier in (a', {matchLabels: {}}]}",
                Documents.Format.YAML, RolloutSpec.class));
        assertThat(e.problems()).extracting(Problem::path).containsExactlyInAnyOrder("maxParallel", "maxFailures", "deviceOrder[0]",
                "deviceOrder[1]");
        assertThat(e.problems()).anySatisfy(p -> {
            assertThat(p.path()).isEqualTo("maxParallel");
            assertThat(p.describe()).isEqualTo("maxParallel: bad value '0%': a percentage must be between 1% and 100%");
        });
        assertThat(e.problems()).anySatisfy(p -> assertThat(p.describe()).isEqualTo("deviceOrder[0]: bad value 'tier in (a': "
                + "at position 10: unable to parse requirement: found '', expected: ',' or ')'"));
        assertThat(catchThrowableOfType(ValidationException.class, () -> MaxParallel.parse("lots")).problems())
                .singleElement().satisfies(p -> assertThat(p.path()).isEqualTo("maxParallel"));
    }

    @Test
    void retriesWithNoFailureBudgetAreValidAndRetryTheDeviceAlone() {
        RolloutSpec spec = Documents.read("{name: r1, targetVersion: '2.0', upgradeControlPlane: false, maxParallel: 1,"
                + " retry: {attempts: 2, delay: PT1M}, maxFailures: 0}", Documents.Format.YAML, RolloutSpec.class);
        MachineDriver d = new MachineDriver(spec, devices(2));
        d.feed(new RolloutEvent.Start());
        d.fail("d-01");
        assertThat(d.state.drainingTo()).as("a retry pending is not a failure").isEmpty();
        d.tick(Duration.ofMinutes(1));
        assertThat(d.issued()).singleElement().satisfies(op -> assertThat(op.opId()).isEqualTo("r1:upgrade:device:d-01:2"));
        d.succeed("d-01");
        d.succeed("d-02");
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(d.state.deviceFailures()).isZero();
    }

    @Test
    void theEstimateShowsItsPartsAndATooShortWindowIsRefusedUnlessPartialIsAllowed() {
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").prechecks(true).maxParallel(2)
                .timeouts(new OpTimeouts(Duration.ofMinutes(10), Duration.ofMinutes(20), Duration.ofMinutes(5)))
                .window(MaintenanceWindow.between(T0, T0.plus(Duration.ofMinutes(50)))).build();
        Inventory inventory = MachineDriver.inventory(2, Map.of("canary", 3, "edge", 1));
        RolloutPlan plan = RolloutPlanner.plan(spec, inventory);
        // nodes 2 × 10 + services 20 + devices (canary 2 rounds + unmatched 1 round) × 5
        assertThat(plan.estimate()).isEqualTo(new RolloutPlan.Estimate(Duration.ofMinutes(35), Duration.ofMinutes(20),
                Duration.ofMinutes(20), 3, Duration.ofMinutes(15), Duration.ofMinutes(55)));
        assertThat(plan.windowFit()).isEqualTo(RolloutPlan.WindowFit.TOO_SHORT);
        assertThat(plan.refusals()).singleElement().satisfies(p -> {
            assertThat(p.path()).isEqualTo("window");
            assertThat(p.value()).isEqualTo("PT50M");
            assertThat(p.message()).startsWith("the worst case PT55M (nodes PT20M + services PT20M + devices PT15M in 3 round(s)) "
                    + "does not fit the window").contains("allowPartialWindow: true");
        });
        assertThat(catchThrowableOfType(ValidationException.class, () -> RolloutPlanner.requireCreatable(spec, inventory)).problems())
                .isEqualTo(plan.refusals());
        RolloutSpec partial = spec.toBuilder().allowPartialWindow(true).build();
        RolloutPlan allowed = RolloutPlanner.requireCreatable(partial, inventory);
        assertThat(allowed.refusals()).isEmpty();
        assertThat(allowed.warnings()).singleElement().satisfies(w -> assertThat(w).contains("allowPartialWindow is set"));
    }

    @Test
    void aWindowOfExactlyVenicesEstimateIsRefusedBecauseTheServicesOpCountsAgainstTheWindow() {
        // Item 15 of issue 27, kept ▲: Venice's estimate leaves the services stage out (nodes + devices); hotspare
        // counts it, since the leader rolls every service inside the window.
        RolloutSpec.Builder base = RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").maxParallel(2)
                .timeouts(new OpTimeouts(Duration.ofMinutes(10), Duration.ofSeconds(1), Duration.ofMinutes(5)));
        Inventory inventory = MachineDriver.inventory(2, Map.of("canary", 3));
        Duration venice = Duration.ofMinutes(2 * 10 + 2 * 5);
        RolloutSpec exact = base.window(MaintenanceWindow.between(T0, T0.plus(venice))).build();
        RolloutPlan plan = RolloutPlanner.plan(exact, inventory);
        assertThat(plan.estimate().window()).isEqualTo(venice.plusSeconds(1));
        assertThat(plan.windowFit()).isEqualTo(RolloutPlan.WindowFit.TOO_SHORT);
        assertThat(catchThrowableOfType(ValidationException.class, () -> RolloutPlanner.requireCreatable(exact, inventory))
                .problems()).singleElement().satisfies(p -> assertThat(p.describe()).startsWith("window: bad value 'PT30M': "
                        + "the worst case PT30M1S (nodes PT20M + services PT1S + devices PT10M in 2 round(s))"));
        RolloutSpec withServices = base.window(MaintenanceWindow.between(T0, T0.plus(venice).plusSeconds(1))).build();
        assertThat(RolloutPlanner.requireCreatable(withServices, inventory).windowFit()).isEqualTo(RolloutPlan.WindowFit.FITS);
    }

    @Test
    void thePlanSkipsUnfitDevicesAndWarnsOfUnfitNodes() {
        Inventory inventory = new Inventory(List.of(Target.node("node-1", "1.0").withHealth(true, false),
                Target.device("d-01", "1.0", Map.of()).withHealth(false, true), Target.device("d-02", "1.0", Map.of()).withHealth(true, false),
                Target.device("d-03", "1.0", Map.of())));
        RolloutPlan plan = RolloutPlanner.plan(RolloutSpec.builder("r1", "2.0").prechecks(true).build(), inventory);
        assertThat(plan.skipped()).containsExactly(new RolloutPlan.Skipped(TargetRef.device("d-01"), "not admitted to the cluster"),
                new RolloutPlan.Skipped(TargetRef.device("d-02"), "not healthy"));
        String unhealthy = "device(s) not healthy, skipped: d-02; the rollout will end FAILED unless they recover before their group's turn";
        assertThat(plan.warnings()).containsExactly(
                "the precheck stage will fail before any precheck op: node node-1 is not healthy", unhealthy);
        assertThat(RolloutPlanner.plan(RolloutSpec.builder("r1", "2.0").build(), inventory).warnings())
                .containsExactly("node node-1 is not healthy; prechecks are off, so nothing stops the rollout on it", unhealthy);
    }
}
