package dev.hotspare.rollout.runtime.lifecycle;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.MaxParallel;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.Rig;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.runtime.SimulatedFleet;
import dev.hotspare.rollout.spi.RolloutStore.RolloutConflictException;
import dev.hotspare.rollout.spi.RolloutStore.RolloutInProgressException;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class LifecycleTest {

    private final Rig rig = new Rig();

    @Test
    void aSecondRolloutOverATargetInProgressIsRefusedNamingTheRolloutAndTheTargets() {
        RolloutController.create(rig.store, Rig.spec(), Rig.INVENTORY);
        RolloutSpec second = RolloutSpec.builder("r2", "2.0").upgradeControlPlane(false).build();
        Inventory overlapping = new Inventory(List.of(Target.device("dev-3", "1.0", Map.of()), Target.device("dev-9", "1.0", Map.of())));
        assertThatThrownBy(() -> RolloutController.create(rig.store, second, overlapping))
                .isInstanceOfSatisfying(RolloutConflictException.class, e -> {
                    assertThat(e.heldBy()).containsExactly(Map.entry("r1", List.of(TargetRef.device("dev-3"))));
                    assertThat(e.getMessage()).isEqualTo("rollout 'r2' covers targets of a rollout in progress: rollout 'r1' "
                            + "(device/dev-3); a target belongs to one rollout at a time (finish or abort the other rollout first)");
                });
        RolloutController first = rig.controller();
        first.start();
        first.submit(new RolloutEvent.Abort());
        assertThat(RolloutController.create(rig.store, second, overlapping).version()).isEqualTo(1);
    }

    @Test
    void aRolloutInProgressCannotBeDeletedAbortItFirst() {
        RolloutController.create(rig.store, Rig.spec(), Rig.INVENTORY);
        RolloutController controller = rig.controller();
        controller.start();
        controller.submit(new RolloutEvent.Start());
        assertThatThrownBy(() -> rig.store.delete("r1")).isInstanceOfSatisfying(RolloutInProgressException.class,
                e -> assertThat(e.getMessage()).isEqualTo("rollout 'r1' is in progress (NODES); abort it before deleting it"));
        controller.submit(new RolloutEvent.Abort());
        assertThat(rig.store.delete("r1")).isTrue();
        assertThat(rig.store.names()).isEmpty();
    }

    @Test
    void aRolloutWhoseWindowIsKnownToBeTooShortIsRefusedAtCreationUnlessPartialIsAllowed() {
        Instant start = Instant.parse("2026-01-01T22:00:00Z");
        RolloutSpec tight = Rig.spec().toBuilder().maxParallel(1)
                .timeouts(new OpTimeouts(Duration.ofMinutes(20), Duration.ofMinutes(30), Duration.ofMinutes(10)))
                .window(MaintenanceWindow.between(start, start.plus(Duration.ofHours(1)))).build();
        ValidationException e = catchThrowableOfType(ValidationException.class, () -> RolloutController.create(rig.store, tight, Rig.INVENTORY));
        assertThat(e.problems()).singleElement().satisfies(p -> assertThat(p.describe()).isEqualTo("window: bad value 'PT1H': "
                + "the worst case PT1H40M (nodes PT40M + services PT30M + devices PT30M in 3 round(s)) does not fit the window; "
                + "widen the window, raise maxParallel, or set allowPartialWindow: true to create the rollout anyway"));
        assertThat(rig.store.names()).isEmpty();
        assertThat(RolloutController.create(rig.store, tight.toBuilder().allowPartialWindow(true).build(), Rig.INVENTORY).version())
                .isEqualTo(1);
    }

    @Test
    void changeSpecRefusesUnsafeFieldsAtOnceAndAppliesSafeOnes() {
        SimulatedFleet fleet = new SimulatedFleet(rig.channel, rig.scheduler, Rig.INVENTORY, SimulatedFleet.allSucceedAfter(Duration.ofMinutes(3)));
        rig.candidate("node-1", fleet);
        RolloutSpec spec = Rig.spec().toBuilder().upgradeControlPlane(false).maxParallel(1).build();
        RolloutController.create(rig.store, spec, Rig.INVENTORY);
        RolloutController controller = rig.controller();
        controller.start();
        controller.submit(new RolloutEvent.Start());
        ValidationException refused = catchThrowableOfType(ValidationException.class,
                () -> controller.changeSpec(RolloutSpec.builder("r1", "3.0").deviceGroup("tier", "canary").maxParallel(1).build()));
        assertThat(refused.problems()).extracting(Problem::path).containsExactly("targetVersion", "upgradeControlPlane", "deviceOrder");
        controller.changeSpec(spec.toBuilder().maxParallel(MaxParallel.percentOfGroup(100)).build());
        rig.scheduler.advanceBy(Duration.ofMinutes(3));
        assertThat(rig.stored().spec().maxParallel()).isEqualTo(MaxParallel.percentOfGroup(100));
        assertThat(rig.stored().inFlight()).as("the whole edge group at once").extracting(op -> op.target().name())
                .containsExactly("dev-2", "dev-3");
        rig.runUntilFinished();
        assertThat(rig.stored().phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(rig.notices).extracting(Notice::kind).contains(Notice.Kind.SPEC_CHANGE_ACCEPTED, Notice.Kind.SPEC_CHANGED);
    }

    @Test
    void anInventoryChangeThatBringsInATargetHeldElsewhereIsRefusedAndSaidSo() {
        RolloutController.create(rig.store, Rig.spec(), Rig.INVENTORY);
        Inventory own = Inventory.of(Target.device("dev-9", "1.0", Map.of()));
        RolloutController.create(rig.store, RolloutSpec.builder("r2", "2.0").upgradeControlPlane(false).build(), own);
        RolloutController r2 = rig.controller("r2");
        r2.start();
        List<Target> grown = new ArrayList<>(own.targets());
        grown.add(Target.device("dev-1", "1.0", Map.of()));
        r2.submit(new RolloutEvent.InventoryChanged(new Inventory(grown)));
        assertThat(rig.stored("r2").inventory()).isEqualTo(own);
        assertThat(rig.store.load("r2").orElseThrow().version()).isEqualTo(1);
        assertThat(rig.notices).filteredOn(n -> n.kind() == Notice.Kind.EVENT_REFUSED).singleElement()
                .satisfies(n -> assertThat(n.message()).startsWith("InventoryChanged refused, nothing changed: rollout 'r2' covers "
                        + "targets of a rollout in progress: rollout 'r1' (device/dev-1)"));
    }
}
