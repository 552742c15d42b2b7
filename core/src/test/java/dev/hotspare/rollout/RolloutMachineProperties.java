package dev.hotspare.rollout;


import dev.hotspare.rollout.RolloutMachine.Decision;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.MaxParallel;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.RolloutStateJson;
import dev.hotspare.rollout.RolloutState.Suspension;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

class RolloutMachineProperties {

    Gen<RolloutScenarios.Scenario> scenarios() {
        return RolloutScenarios.scenarios(true);
    }

    Gen<RolloutScenarios.Scenario> openScenarios() {
        return RolloutScenarios.scenarios(false);
    }

    Gen<List<Integer>> steps() {
        return Gen.integers(0, 999).list(1, 120);
    }

    /**
     * Totality: a random walk of arbitrary events — genuine, stale, duplicated and invented reports, ticks,
     * suspends, resumes, aborts, leader, inventory and spec changes — never throws, and every intermediate state
     * keeps the safety invariants and survives a JSON round trip.
     */
    @Property
    void everyStateEventPairHasAnOutcome() {
        forAll(scenarios(), steps()).check((scenario, steps) -> {
            RolloutState state = RolloutMachine.initial(scenario.spec(), scenario.inventory());
            Instant now = RolloutScenarios.T0;
            Set<String> ids = new HashSet<>();
            List<RolloutEvent.AgentReported> seen = new ArrayList<>();
            for (int step : steps) {
                RolloutEvent event = randomEvent(state, step, seen, scenario.inventory());
                now = now.plus(Duration.ofSeconds(step % 7 == 0 ? step * 7L : 1));
                Decision d = RolloutMachine.decide(state, event, now);
                state = d.state();
                RolloutScenarios.checkInvariants(state, d.commandsOf(RolloutCommand.IssueOp.class), ids);
                if (event instanceof RolloutEvent.AgentReported r) {
                    seen.add(r);
                }
            }
            assertThat(RolloutStateJson.read(RolloutStateJson.write(state))).isEqualTo(state);
        });
    }

    private static RolloutEvent randomEvent(RolloutState s, int step, List<RolloutEvent.AgentReported> seen, Inventory original) {
        int kind = step % 20;
        if (kind == 0) {
            return new RolloutEvent.Start();
        }
        if (kind <= 9 && !s.inFlight().isEmpty()) {
            InFlightOp op = s.inFlight().get(step % s.inFlight().size());
            return new RolloutEvent.AgentReported(op.address(), op.opId(), op.attempt(),
                    step % 3 == 0 ? OpStatus.FAILED : OpStatus.SUCCEEDED, "");
        }
        if (kind == 10 && !seen.isEmpty()) {
            return seen.get(step % seen.size());
        }
        if (kind == 11) {
            return new RolloutEvent.AgentReported(TargetRef.device("dev-0" + step % 10 + "-a"), "r1:upgrade:device:x:" + step,
                    step % 4, OpStatus.SUCCEEDED, "");
        }
        if (kind == 12) {
            return step % 2 == 0 ? new RolloutEvent.Suspend() : new RolloutEvent.Resume();
        }
        if (kind == 13) {
            return new RolloutEvent.LeaderChanged(step % 3 == 0 ? Optional.empty() : Optional.of("node-" + step % 3));
        }
        if (kind == 14 && step > 980) {
            return new RolloutEvent.Abort();
        }
        if (kind == 15) {
            List<Target> targets = new ArrayList<>(original.targets());
            if (!targets.isEmpty() && step % 2 == 0) {
                targets.remove(step % targets.size());
            } else {
                targets.add(RolloutScenarios.device(10 + step % 5, List.of("a", "b", "c", "none").get(step % 4), "1.0"));
            }
            return new RolloutEvent.InventoryChanged(new Inventory(targets));
        }
        if (kind == 16) {
            return new RolloutEvent.SpecChanged(changedSpec(s.spec(), step));
        }
        return new RolloutEvent.Tick(RolloutScenarios.T0);
    }

    /** A spec change: mostly safe fields (maxParallel, maxFailures, window end, suspend), sometimes a refused one. */
    private static RolloutSpec changedSpec(RolloutSpec spec, int step) {
        RolloutSpec.Builder b = spec.toBuilder();
        switch (step % 5) {
            case 0 -> b.maxParallel(step % 2 == 0 ? MaxParallel.of(1 + step % 4) : MaxParallel.percentOfGroup(25 + step % 76));
            case 1 -> b.maxFailures(step % 4);
            case 2 -> spec.window().ifPresent(w -> b.window(new MaintenanceWindow(w.start(),
                    Optional.of(w.start().plus(Duration.ofMinutes(1 + step % 300))))));
            case 3 -> b.suspend(!spec.suspend());
            default -> b.prechecks(!spec.prechecks());
        }
        return b.build();
    }

    /**
     * With every agent succeeding in time and no window end, every target ends on the target version; with
     * arbitrary report interleavings, suspends and resumes, the invariants hold throughout.
     */
    @Property
    void allAgentsSucceedingPutsEveryTargetOnTheVersion() {
        forAll(openScenarios(), steps()).check((scenario, order) -> {
            RolloutState state = RolloutMachine.initial(scenario.spec(), scenario.inventory());
            Instant now = RolloutScenarios.T0;
            Set<String> ids = new HashSet<>();
            state = apply(state, new RolloutEvent.LeaderChanged(Optional.of("node-0")), now, ids);
            state = apply(state, new RolloutEvent.Start(), now, ids);
            int i = 0;
            while (!state.terminal()) {
                int choice = order.get(i++ % order.size());
                // Time moves only when nothing is in flight, so every agent answers before its deadline.
                if (choice % 11 == 0 && state.suspension() == Suspension.NONE) {
                    state = apply(state, new RolloutEvent.Suspend(), now, ids);
                    continue;
                }
                if (choice % 11 == 1 || state.inFlight().isEmpty()) {
                    state = apply(state, new RolloutEvent.Resume(), now, ids);
                }
                if (state.inFlight().isEmpty()) {
                    now = state.nextWake().orElse(now);
                    state = apply(state, new RolloutEvent.Tick(now), now, ids);
                } else {
                    InFlightOp op = state.inFlight().get(choice % state.inFlight().size());
                    state = apply(state, new RolloutEvent.AgentReported(op.address(), op.opId(), op.attempt(), OpStatus.SUCCEEDED, "ok"), now, ids);
                }
                assertThat(i).as("rollout should finish").isLessThan(10_000);
            }
            // An unhealthy device is skipped and fails the rollout (as Venice's), however well the others went.
            boolean unhealthy = scenario.inventory().targets().stream()
                    .anyMatch(t -> Grouping.skipReason(scenario.spec(), t).filter(Grouping.DEVICE_NOT_HEALTHY::equals).isPresent());
            assertThat(state.phase()).isEqualTo(unhealthy ? Phase.FAILED : Phase.SUCCEEDED);
            for (Target t : scenario.inventory().targets()) {
                boolean leftAloneBySpec = Grouping.skipReason(scenario.spec(), t).filter(why -> !why.startsWith("already")).isPresent();
                if (!leftAloneBySpec) {
                    assertThat(state.record(t.ref()).orElseThrow().version()).as(t.name()).isEqualTo("2.0");
                }
            }
        });
    }

    private static RolloutState apply(RolloutState s, RolloutEvent e, Instant now, Set<String> ids) {
        Decision d = RolloutMachine.decide(s, e, now);
        RolloutScenarios.checkInvariants(d.state(), d.commandsOf(RolloutCommand.IssueOp.class), ids);
        return d.state();
    }
}
