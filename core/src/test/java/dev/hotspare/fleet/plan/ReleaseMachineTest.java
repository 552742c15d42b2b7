package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseCommand;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseDecision;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseEvent;
import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.plan.ReleaseState.ReleaseStateJson;
import dev.hotspare.fleet.versions.SchedulerVersion;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Exact examples of the release machine: chunks, rollback, resume, the stored form. */
class ReleaseMachineTest {

    static final SchedulerVersion V1 = SchedulerVersion.FIRST;
    static final SchedulerVersion V2 = new SchedulerVersion(2, 0);
    static final SchedulerVersion V3 = new SchedulerVersion(3, 0);

    private static ReleaseState start(MaxSurge surge) {
        return ReleaseState.start(V2, Optional.of(V1), surge, Duration.ofMinutes(5), ReleaseWorld.T0);
    }

    @Test
    void theFirstTickReplacesOneChunkOfOldRoomsOneForOne() {
        ReleaseWorld world = new ReleaseWorld(1, 0, 4, V1);
        ReleaseDecision d = ReleaseMachine.decide(start(MaxSurge.percent(50)), new ReleaseEvent.Tick(world.observe()), world.now);

        assertThat(d.state().chunkSize()).isEqualTo(2);
        assertThat(d.state().chunk()).containsExactly("old-0", "old-1");
        assertThat(d.state().expectedNew()).isEqualTo(2);
        assertThat(d.commands()).containsExactly(new ReleaseCommand.CreateRooms(V2, 2),
                new ReleaseCommand.RemoveRooms(List.of("old-0", "old-1")));
    }

    @Test
    void aChunkStillStartingWaitsAndTheLastReadyChunkDeploys() {
        ReleaseWorld world = new ReleaseWorld(1, 0, 2, V1);
        ReleaseState s = start(MaxSurge.percent(100));
        ReleaseDecision d = ReleaseMachine.decide(s, new ReleaseEvent.Tick(world.observe()), world.now);
        d.commands().forEach(c -> world.run(c, Integer.MAX_VALUE));

        ReleaseDecision waiting = ReleaseMachine.decide(d.state(), new ReleaseEvent.Tick(world.observe()), world.now);
        assertThat(waiting.commands()).isEmpty();
        assertThat(waiting.state()).isEqualTo(d.state());

        world.advance(Duration.ofMinutes(1));
        ReleaseDecision done = ReleaseMachine.decide(d.state(), new ReleaseEvent.Tick(world.observe()), world.now);
        assertThat(done.state().phase()).isEqualTo(ReleasePhase.DEPLOYED);
        assertThat(done.commands()).containsExactly(new ReleaseCommand.SetReleaseStatus(V2, ReleasePhase.DEPLOYED));
    }

    @Test
    void aTimeoutRecordsTheFailureSavesThePreviousConfigAsTheNextMajorAndRollsBack() {
        ReleaseWorld world = new ReleaseWorld(1, 0, 2, V1);
        ReleaseState s = start(MaxSurge.percent(100));
        world.advance(Duration.ofMinutes(5));

        ReleaseDecision d = ReleaseMachine.decide(s, new ReleaseEvent.Tick(world.observe()), world.now);

        assertThat(d.state().phase()).isEqualTo(ReleasePhase.ROLLING_BACK);
        assertThat(d.state().failure()).contains(ReleasePhase.TIMED_OUT);
        assertThat(d.state().goal()).isEqualTo(V3);
        assertThat(d.state().deadline()).isEqualTo(world.now.plus(Duration.ofMinutes(5)));
        assertThat(d.commands()).containsExactly(new ReleaseCommand.SetReleaseStatus(V2, ReleasePhase.TIMED_OUT),
                new ReleaseCommand.SaveRollback(V3, V1));
    }

    @Test
    void aCancelRollsBackWhileReplacingAndIsIgnoredByARollback() {
        ReleaseDecision cancelled = ReleaseMachine.decide(start(MaxSurge.DEFAULT), new ReleaseEvent.Cancel(), ReleaseWorld.T0);
        assertThat(cancelled.state().phase()).isEqualTo(ReleasePhase.ROLLING_BACK);
        assertThat(cancelled.state().failure()).contains(ReleasePhase.CANCELED);

        ReleaseDecision again = ReleaseMachine.decide(cancelled.state(), new ReleaseEvent.Cancel(), ReleaseWorld.T0);
        assertThat(again.state()).isEqualTo(cancelled.state());
        assertThat(again.commands()).isEmpty();
    }

    @Test
    void aRollbackThatEndsLeavesTheReleaseInThePhaseOfItsFailure() {
        ReleaseWorld world = new ReleaseWorld(1, 0, 1, V1);
        ReleaseState back = ReleaseMachine.decide(start(MaxSurge.DEFAULT), new ReleaseEvent.LeaseLost(), world.now).state();
        world.current = V3;
        ReleaseState s = back;
        for (int i = 0; i < 100 && !s.terminal(); i++) {
            ReleaseDecision d = ReleaseMachine.decide(s, new ReleaseEvent.Tick(world.observe()), world.now);
            d.commands().forEach(c -> world.run(c, Integer.MAX_VALUE));
            s = d.state();
            world.advance(Duration.ofSeconds(1));
        }
        assertThat(s.phase()).isEqualTo(ReleasePhase.ERROR);
        assertThat(s.rollbackOutcome()).contains(ReleasePhase.DEPLOYED);
        assertThat(world.versions()).containsOnly("v3.0");
        assertThat(world.statuses).containsExactly("v3.0=DEPLOYED");
        assertThat(ReleaseMachine.outcomes(s)).containsExactly(new ReleaseCommand.SetReleaseStatus(V2, ReleasePhase.ERROR),
                new ReleaseCommand.SetReleaseStatus(V3, ReleasePhase.DEPLOYED));
    }

    @Test
    void aResumeCompletesTheChunkItsPreviousOwnerSavedButDidNotRun() {
        ReleaseWorld world = new ReleaseWorld(1, 0, 4, V1);
        ReleaseDecision first = ReleaseMachine.decide(start(MaxSurge.percent(50)), new ReleaseEvent.Tick(world.observe()), world.now);
        world.run(first.commands().get(0), 1); // the owner died after creating one of two rooms

        ReleaseDecision resumed = ReleaseMachine.decide(first.state(), new ReleaseEvent.Resume(world.observe(), V2), world.now);

        assertThat(resumed.state()).isEqualTo(first.state());
        assertThat(resumed.commands()).containsExactly(new ReleaseCommand.CreateRooms(V2, 1),
                new ReleaseCommand.RemoveRooms(List.of("old-0", "old-1")));
    }

    @Test
    void aResumedRollbackSavesItsVersionWhenThePreviousOwnerCouldNot() {
        ReleaseState back = ReleaseMachine.decide(start(MaxSurge.DEFAULT), new ReleaseEvent.Cancel(), ReleaseWorld.T0).state();

        ReleaseDecision resumed = ReleaseMachine.decide(back, new ReleaseEvent.Resume(List.of(), V2), ReleaseWorld.T0);

        assertThat(resumed.commands()).containsExactly(new ReleaseCommand.SetReleaseStatus(V2, ReleasePhase.CANCELED),
                new ReleaseCommand.SaveRollback(V3, V1));
    }

    @Test
    void aRepairHasNothingToRollBackToAndRecordsNoStatus() {
        ReleaseState repair = ReleaseState.start(V2, Optional.empty(), MaxSurge.DEFAULT, Duration.ofMinutes(1), ReleaseWorld.T0);
        ReleaseDecision d = ReleaseMachine.decide(repair, new ReleaseEvent.Cancel(), ReleaseWorld.T0);
        assertThat(d.state().phase()).isEqualTo(ReleasePhase.CANCELED);
        assertThat(d.commands()).isEmpty();
        assertThat(ReleaseMachine.outcomes(d.state())).isEmpty();
    }

    @Test
    void theStoredFormReadsBackEqualAndBadTextNamesTheField() {
        ReleaseState back = ReleaseMachine.decide(start(MaxSurge.rooms(3)), new ReleaseEvent.Cancel(), ReleaseWorld.T0).state();
        assertThat(ReleaseStateJson.read(ReleaseStateJson.write(back))).isEqualTo(back);
        assertThat(ReleaseStateJson.read(ReleaseStateJson.write(start(MaxSurge.DEFAULT)))).isEqualTo(start(MaxSurge.DEFAULT));
        assertThatThrownBy(() -> ReleaseStateJson.read("{\"format\":2}")).hasMessageContaining("format");
        assertThatThrownBy(() -> ReleaseStateJson.read("{\"format\":1,\"phase\":\"REPLACING\"}")).hasMessageContaining("target");
        assertThatThrownBy(() -> ReleaseStateJson.read("[")).hasMessageContaining("release state");
    }
}
