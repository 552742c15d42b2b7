package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseCommand;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseDecision;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseEvent;
import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.versions.SchedulerVersion;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The release machine's invariants over seeded random fleets (the seed is in every message): a chunk never
 * exceeds maxSurge; a failure is always followed by a rollback; terminal phases never change; a release whose
 * owner crashes anywhere — before a save, or after it with its commands run only in part — and is resumed ends
 * the same as without the crash.
 */
class ReleaseMachineInvariantsTest {

    private static final SchedulerVersion V1 = SchedulerVersion.FIRST;
    private static final SchedulerVersion V2 = new SchedulerVersion(2, 0);
    private static final int CASES = 400;

    record Scenario(long seed, int rooms, MaxSurge surge, int failPercent, Duration timeout, Duration tick,
                    int cancelAt, int leaseLostAt) {
    }

    private static Scenario scenario(long seed, boolean interruptions) {
        Random r = new Random(seed);
        MaxSurge surge = r.nextBoolean() ? MaxSurge.percent(1 + r.nextInt(100)) : MaxSurge.rooms(1 + r.nextInt(6));
        return new Scenario(seed, r.nextInt(16), surge, r.nextInt(4) == 0 ? 0 : r.nextInt(25),
                Duration.ofSeconds(interruptions ? 20 + r.nextInt(600) : 36_000), Duration.ofSeconds(1 + r.nextInt(5)),
                interruptions && r.nextInt(4) == 0 ? r.nextInt(40) : -1,
                interruptions && r.nextInt(6) == 0 ? r.nextInt(40) : -1);
    }

    @Test
    void chunksStayWithinMaxSurgeFailuresRollBackAndTerminalPhasesNeverChange() {
        for (long seed = 0; seed < CASES; seed++) {
            Scenario sc = scenario(seed, true);
            String why = "seed " + seed + ": " + sc;
            ReleaseWorld world = new ReleaseWorld(seed, sc.failPercent(), sc.rooms(), V1);
            ReleaseState s = ReleaseState.start(V2, Optional.of(V1), sc.surge(), sc.timeout(), world.now);
            int limit = sc.surge().chunkSize(sc.rooms());
            for (int step = 0; step < 20_000 && !s.terminal(); step++) {
                ReleaseEvent event = step == sc.cancelAt() ? new ReleaseEvent.Cancel()
                        : step == sc.leaseLostAt() ? new ReleaseEvent.LeaseLost() : new ReleaseEvent.Tick(world.observe());
                ReleaseDecision d = ReleaseMachine.decide(s, event, world.now);
                for (ReleaseCommand c : d.commands()) {
                    if (c instanceof ReleaseCommand.CreateRooms create) {
                        assertThat(create.count()).as(why).isBetween(1, Math.min(limit, d.state().chunkSize()));
                    }
                    if (c instanceof ReleaseCommand.RemoveRooms remove) {
                        assertThat(remove.rooms().size()).as(why).isBetween(1, Math.min(limit, d.state().chunkSize()));
                    }
                    world.run(c, Integer.MAX_VALUE);
                }
                if (s.phase() == ReleasePhase.REPLACING && d.state().failure().isPresent()) {
                    assertThat(d.state().phase()).as(why + ": a failure rolls back").isEqualTo(ReleasePhase.ROLLING_BACK);
                    assertThat(d.commands()).as(why).contains(new ReleaseCommand.SaveRollback(V2.nextMajor(), V1));
                }
                if (s.phase() == ReleasePhase.ROLLING_BACK) {
                    assertThat(d.state().phase()).as(why + ": a rollback never replaces again").isNotEqualTo(ReleasePhase.REPLACING);
                }
                s = d.state();
                world.advance(sc.tick());
            }
            assertThat(s.terminal()).as(why + ": ends").isTrue();
            if (s.failure().isPresent()) {
                assertThat(s.phase()).as(why).isEqualTo(s.failure().get());
                assertThat(s.rollbackOutcome()).as(why + ": the rollback ran").isPresent();
                assertThat(world.current).as(why).isEqualTo(V2.nextMajor());
            } else {
                assertThat(world.versions()).as(why).allMatch("v2.0"::equals);
            }
            assertThat(world.live()).as(why + ": one new room per old room").isEqualTo(sc.rooms());
            for (ReleaseEvent late : List.of(new ReleaseEvent.Tick(world.observe()), new ReleaseEvent.Cancel(),
                    new ReleaseEvent.LeaseLost(), new ReleaseEvent.Resume(world.observe(), world.current))) {
                ReleaseDecision after = ReleaseMachine.decide(s, late, world.now.plus(Duration.ofDays(1)));
                assertThat(after.state()).as(why + ": terminal").isEqualTo(s);
                assertThat(after.commands()).as(why + ": terminal").isEmpty();
            }
        }
    }

    record Outcome(ReleasePhase phase, Optional<ReleasePhase> rollbackOutcome, SchedulerVersion current,
                   List<String> versions, Map<SchedulerVersion, ReleasePhase> statuses) {
    }

    @Test
    void aCrashAnywhereResumesToTheSameOutcome() {
        for (long seed = 0; seed < CASES; seed++) {
            Scenario sc = scenario(seed, false);
            Random crashes = new Random(~seed);
            Outcome reference = run(sc, new Random(0), 0);
            Outcome crashed = run(sc, crashes, 1 + crashes.nextInt(40));
            assertThat(crashed).as("seed " + seed + ": " + sc).isEqualTo(reference);
        }
    }

    /** Runs a release to its end; each decision crashes with probability {@code crashPercent}. */
    private static Outcome run(Scenario sc, Random crashes, int crashPercent) {
        ReleaseWorld world = new ReleaseWorld(sc.seed(), sc.failPercent(), sc.rooms(), V1);
        world.current = V2;
        ReleaseState saved = ReleaseState.start(V2, Optional.of(V1), sc.surge(), sc.timeout(), world.now);
        Map<SchedulerVersion, ReleasePhase> statuses = new LinkedHashMap<>();
        boolean resume = false;
        for (int step = 0; step < 50_000 && !saved.terminal(); step++) {
            ReleaseEvent event = resume ? new ReleaseEvent.Resume(world.observe(), world.current) : new ReleaseEvent.Tick(world.observe());
            resume = false;
            ReleaseDecision d = ReleaseMachine.decide(saved, event, world.now);
            boolean crash = crashes.nextInt(100) < crashPercent;
            if (crash && crashes.nextBoolean()) {
                resume = true; // died before the save: the decision is lost
            } else {
                saved = d.state();
                int upTo = crash ? crashes.nextInt(d.commands().size() + 1) : d.commands().size();
                for (int i = 0; i < upTo; i++) {
                    run(world, statuses, d.commands().get(i), crash && i == upTo - 1 ? crashes.nextInt(4) : Integer.MAX_VALUE);
                }
                resume = crash;
            }
            world.advance(sc.tick());
        }
        // The next owner finds the release finished and records the statuses its end implies (idempotent).
        ReleaseMachine.outcomes(saved).forEach(c -> run(world, statuses, c, Integer.MAX_VALUE));
        return new Outcome(saved.phase(), saved.rollbackOutcome(), world.current, world.versions(), statuses);
    }

    private static void run(ReleaseWorld world, Map<SchedulerVersion, ReleasePhase> statuses, ReleaseCommand c, int limit) {
        if (c instanceof ReleaseCommand.SetReleaseStatus set) {
            statuses.put(set.version(), set.outcome());
        } else {
            world.run(c, limit);
        }
    }

    @Test
    void everyInvalidStateIsRefusedNamingTheField() {
        ReleaseState ok = ReleaseState.start(V2, Optional.of(V1), MaxSurge.DEFAULT, Duration.ofMinutes(1), ReleaseWorld.T0);
        try {
            new ReleaseState(V2, Optional.empty(), ReleasePhase.REPLACING, MaxSurge.DEFAULT, Duration.ZERO, ok.deadline(), 0,
                    List.of(), 0, Optional.empty(), Optional.empty());
            fail("a zero timeout was accepted");
        } catch (IllegalArgumentException e) {
            assertThat(e).hasMessageContaining("timeout");
        }
        try {
            new ReleaseState(V2, Optional.empty(), ReleasePhase.REPLACING, MaxSurge.DEFAULT, Duration.ofMinutes(1), ok.deadline(), -1,
                    List.of(), 0, Optional.empty(), Optional.empty());
            fail("a negative chunk size was accepted");
        } catch (IllegalArgumentException e) {
            assertThat(e).hasMessageContaining("chunkSize");
        }
    }
}
