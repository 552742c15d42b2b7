package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.MaxParallel;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.Suspension;
import dev.hotspare.validation.Problem;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static dev.hotspare.rollout.MachineDriver.T0;
import static org.assertj.core.api.Assertions.assertThat;

/** A running rollout's spec changes only in safe fields, at the next batch boundary. */
class SpecChangeTest {

    private static final RolloutEvent START = new RolloutEvent.Start();

    private static RolloutSpec.Builder spec() {
        return RolloutSpec.builder("r1", "2.0").upgradeControlPlane(false).deviceGroup("tier", "canary");
    }

    private static RolloutEvent changed(RolloutSpec spec) {
        return new RolloutEvent.SpecChanged(spec);
    }

    @Test
    void aChangeOfAnyOtherFieldIsRefusedAsAWholeNamingTheFields() {
        RolloutSpec running = spec().maxParallel(1).build();
        MachineDriver d = new MachineDriver(running, MachineDriver.inventory(0, Map.of("canary", 3)));
        d.feed(START);
        RolloutState before = d.state;
        d.feed(changed(running.toBuilder().maxParallel(3).strategy(DeviceStrategy.EXPONENTIAL).retry(2, Duration.ZERO).build()));
        assertThat(d.state).isEqualTo(before);
        assertThat(d.issued()).isEmpty();
        assertThat(d.noticeKinds()).containsExactly(Notice.Kind.SPEC_CHANGE_REFUSED);
        assertThat(d.last.commandsOf(RolloutCommand.Emit.class).get(0).notice().message())
                .startsWith("spec change refused, nothing changed: strategy: bad value 'EXPONENTIAL': cannot change while the "
                        + "rollout runs (it is LINEAR); only maxParallel, window.end, suspend, maxFailures can")
                .contains("retry: bad value");
    }

    @Test
    void unsafeChangesNameEveryFieldButTheSafeOnes() {
        RolloutSpec running = RolloutSpec.builder("r1", "2.0").window(MaintenanceWindow.from(T0)).build();
        RolloutSpec next = RolloutSpec.builder("r1", "3.0").window(MaintenanceWindow.from(T0.plusSeconds(60)))
                .deviceGroup("tier in (canary)").prechecks(true).allowPartialWindow(true)
                .maxParallel(MaxParallel.percentOfGroup(50)).maxFailures(4).suspend(true).build();
        assertThat(RolloutSpec.unsafeChanges(running, next)).extracting(Problem::path)
                .containsExactly("targetVersion", "deviceOrder", "prechecks", "allowPartialWindow", "window.start");
        assertThat(RolloutSpec.unsafeChanges(running, RolloutSpec.builder("r1", "2.0").build())).extracting(Problem::path)
                .containsExactly("window");
    }

    @Test
    void linearPicksUpANewMaxParallelWhenItNextFillsThePool() {
        RolloutSpec running = spec().maxParallel(1).build();
        MachineDriver d = new MachineDriver(running, MachineDriver.inventory(0, Map.of("canary", 5)));
        d.feed(START);
        assertThat(d.issuedNames()).containsExactly("canary-01");
        d.feed(changed(running.toBuilder().maxParallel(3).build()));
        assertThat(d.noticeKinds()).containsExactly(Notice.Kind.SPEC_CHANGE_ACCEPTED, Notice.Kind.SPEC_CHANGED);
        assertThat(d.issuedNames()).containsExactly("canary-02", "canary-03");
        assertThat(d.state.spec().maxParallel()).isEqualTo(MaxParallel.of(3));
        assertThat(d.state.pendingSpec()).isEmpty();
        // Lowering it never cancels anything: the pool shrinks as ops finish.
        d.feed(changed(running.toBuilder().maxParallel(1).build()));
        assertThat(d.state.inFlight()).hasSize(3);
        d.succeed("canary-01");
        d.succeed("canary-02");
        assertThat(d.issued()).isEmpty();
        d.succeed("canary-03");
        assertThat(d.issuedNames()).containsExactly("canary-04");
    }

    @Test
    void exponentialWaitsForTheEndOfTheBatch() {
        RolloutSpec running = spec().strategy(DeviceStrategy.EXPONENTIAL).maxParallel(2).build();
        MachineDriver d = new MachineDriver(running, MachineDriver.inventory(0, Map.of("canary", 8)));
        d.feed(START);
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-02", "canary-03");
        d.feed(changed(running.toBuilder().maxParallel(4).build()));
        assertThat(d.noticeKinds()).containsExactly(Notice.Kind.SPEC_CHANGE_ACCEPTED);
        assertThat(d.state.pendingSpec()).map(RolloutSpec::maxParallel).contains(MaxParallel.of(4));
        assertThat(d.state.spec().maxParallel()).isEqualTo(MaxParallel.of(2));
        d.succeed("canary-02");
        assertThat(d.state.pendingSpec()).isPresent();
        d.succeed("canary-03");
        assertThat(d.noticeKinds()).contains(Notice.Kind.SPEC_CHANGED);
        assertThat(d.issuedNames()).as("batch 3 under the new cap: min(4, 4)").containsExactly("canary-04", "canary-05", "canary-06", "canary-07");
    }

    @Test
    void suspendInTheSpecActsLikeSuspendAndResumeAndTheEventsKeepTheSpecInStep() {
        RolloutSpec running = spec().maxParallel(1).build();
        MachineDriver d = new MachineDriver(running, MachineDriver.inventory(0, Map.of("canary", 3)));
        d.feed(START);
        d.feed(changed(running.toBuilder().suspend(true).build()));
        assertThat(d.state.suspension()).isEqualTo(Suspension.REQUESTED);
        assertThat(d.state.spec().suspend()).isTrue();
        d.succeed("canary-01");
        assertThat(d.state.suspension()).isEqualTo(Suspension.SUSPENDED);
        assertThat(d.issued()).isEmpty();
        d.feed(changed(running));
        assertThat(d.state.suspension()).isEqualTo(Suspension.NONE);
        assertThat(d.issuedNames()).containsExactly("canary-02");
        d.feed(new RolloutEvent.Suspend());
        assertThat(d.state.spec().suspend()).isTrue();
        d.feed(new RolloutEvent.Resume());
        assertThat(d.state.spec().suspend()).isFalse();
    }

    @Test
    void aSpecCreatedSuspendedStartsSuspended() {
        MachineDriver d = new MachineDriver(spec().suspend(true).build(), MachineDriver.inventory(0, Map.of("canary", 1)));
        assertThat(d.state.suspension()).isEqualTo(Suspension.REQUESTED);
        d.feed(START);
        assertThat(d.state.suspension()).isEqualTo(Suspension.SUSPENDED);
        assertThat(d.issued()).isEmpty();
    }

    @Test
    void extendingTheWindowEndReopensAClosedWindow() {
        RolloutSpec running = spec().maxParallel(1)
                .timeouts(new OpTimeouts(Duration.ofHours(1), Duration.ofHours(1), Duration.ofHours(1)))
                .window(MaintenanceWindow.between(T0, T0.plus(Duration.ofMinutes(30)))).build();
        MachineDriver d = new MachineDriver(running, MachineDriver.inventory(0, Map.of("canary", 3)));
        d.feed(START);
        d.tick(Duration.ofMinutes(30));
        assertThat(d.state.windowClosed()).isTrue();
        d.feed(changed(running.toBuilder().window(MaintenanceWindow.between(T0, T0.plus(Duration.ofHours(3)))).build()));
        assertThat(d.state.windowClosed()).isFalse();
        assertThat(d.last.commandsOf(RolloutCommand.Emit.class)).extracting(e -> e.notice().message())
                .contains("maintenance window reopened until " + T0.plus(Duration.ofHours(3)));
        d.succeed("canary-01");
        assertThat(d.issuedNames()).containsExactly("canary-02");
        assertThat(d.last.commandsOf(RolloutCommand.ScheduleWake.class)).isNotEmpty();
    }

    @Test
    void raisingMaxFailuresWhileHaltingLetsTheRolloutContinue() {
        RolloutSpec running = spec().maxParallel(2).build();
        MachineDriver d = new MachineDriver(running, MachineDriver.inventory(0, Map.of("canary", 4)));
        d.feed(START);
        d.fail("canary-01");
        assertThat(d.state.drainingTo()).contains(Phase.FAILED);
        d.feed(changed(running.toBuilder().maxFailures(1).build()));
        assertThat(d.state.drainingTo()).isEmpty();
        assertThat(d.issuedNames()).containsExactly("canary-03");
        d.succeedAllInFlight();
        d.succeedAllInFlight();
        assertThat(d.state.phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(d.state.reason()).hasValueSatisfying(r -> assertThat(r).contains("1 device failure(s) tolerated by maxFailures 1"));
    }

    @Test
    void loweringMaxFailuresBelowTheFailuresSoFarHalts() {
        RolloutSpec running = spec().maxParallel(1).maxFailures(2).build();
        MachineDriver d = new MachineDriver(running, MachineDriver.inventory(0, Map.of("canary", 3)));
        d.feed(START);
        d.fail("canary-01");
        d.feed(changed(running.toBuilder().maxFailures(0).build()));
        assertThat(d.state.drainingTo()).contains(Phase.FAILED);
        d.succeed("canary-02");
        assertThat(d.state.phase()).isEqualTo(Phase.FAILED);
    }

    @Test
    void beforeStartAChangeTakesEffectAtOnce() {
        RolloutSpec created = spec().build();
        MachineDriver d = new MachineDriver(created, MachineDriver.inventory(0, Map.of("canary", 1)));
        d.feed(changed(created.toBuilder().maxParallel(MaxParallel.percentOfGroup(50)).build()));
        assertThat(d.state.spec().maxParallel()).isEqualTo(MaxParallel.percentOfGroup(50));
        assertThat(d.state.pendingSpec()).isEmpty();
    }
}
