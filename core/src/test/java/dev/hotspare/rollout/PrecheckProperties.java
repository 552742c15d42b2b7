package dev.hotspare.rollout;


import dev.hotspare.rollout.RolloutMachine.Decision;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** Device prechecks follow the upgrade's order and pacing, whatever the agents answer and whenever. */
class PrecheckProperties {

    Gen<RolloutScenarios.Scenario> scenarios() {
        return Gen.lazy(() -> RolloutScenarios.scenarios(true))
                .map(s -> new RolloutScenarios.Scenario(s.spec().toBuilder().prechecks(true).build(), s.inventory()));
    }

    Gen<List<Integer>> steps() {
        return Gen.integers(0, 999).list(1, 150);
    }

    /**
     * Prechecks never run a device before its group's turn: whatever passes, fails, times out, is suspended or
     * resumed, every device precheck in flight belongs to one group, no earlier group has a device still
     * waiting for (or running) its precheck, groups start their prechecks in selector order, LINEAR never has
     * more than the group's parallelism in flight, and EXPONENTIAL batches in each group are 1, 2, 4, … capped,
     * restarting per group.
     */
    @Property(tries = 500)
    void prechecksNeverRunADeviceBeforeItsGroupsTurn() {
        forAll(scenarios(), steps()).check((scenario, steps) -> {
            RolloutState state = RolloutMachine.initial(scenario.spec(), scenario.inventory());
            Instant now = RolloutScenarios.T0;
            Set<String> ids = new HashSet<>();
            Map<Integer, List<Integer>> batchesByGroup = new TreeMap<>();
            List<Integer> groupsStarted = new ArrayList<>();
            state = step(state, new RolloutEvent.LeaderChanged(Optional.of("node-0")), now, ids, batchesByGroup, groupsStarted);
            state = step(state, new RolloutEvent.Start(), now, ids, batchesByGroup, groupsStarted);
            for (int step : steps) {
                if (state.terminal()) {
                    break;
                }
                RolloutEvent event;
                int kind = step % 10;
                if (kind <= 5 && !state.inFlight().isEmpty()) {
                    InFlightOp op = state.inFlight().get(step % state.inFlight().size());
                    event = new RolloutEvent.AgentReported(op.address(), op.opId(), op.attempt(),
                            step % 4 == 0 ? OpStatus.FAILED : OpStatus.SUCCEEDED, "");
                } else if (kind == 6) {
                    event = step % 2 == 0 ? new RolloutEvent.Suspend() : new RolloutEvent.Resume();
                } else {
                    // Time passes: deadlines may expire (a timed-out precheck fails), the window may open or close.
                    now = now.plus(Duration.ofMinutes(step % 25));
                    event = new RolloutEvent.Tick(now);
                }
                state = step(state, event, now, ids, batchesByGroup, groupsStarted);
            }
            for (Map.Entry<Integer, List<Integer>> group : batchesByGroup.entrySet()) {
                int size = RolloutScenarios.groupSize(state, group.getKey());
                int parallel = state.spec().maxParallel().forGroup(size);
                if (state.spec().strategy() == DeviceStrategy.EXPONENTIAL) {
                    List<Integer> ramp = Grouping.exponentialBatchSizes(size, parallel);
                    assertThat(ramp).as("group %s batches", group.getKey()).startsWith(group.getValue().toArray(Integer[]::new));
                } else {
                    assertThat(group.getValue()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(parallel));
                }
            }
            assertThat(groupsStarted).isSorted();
        });
    }

    private static RolloutState step(RolloutState state, RolloutEvent event, Instant now, Set<String> ids,
                                     Map<Integer, List<Integer>> batchesByGroup, List<Integer> groupsStarted) {
        Decision d = RolloutMachine.decide(state, event, now);
        RolloutState next = d.state();
        RolloutScenarios.checkInvariants(next, d.commandsOf(RolloutCommand.IssueOp.class), ids);
        Map<Integer, Integer> issuedPerGroup = new TreeMap<>();
        for (RolloutCommand.IssueOp op : d.commandsOf(RolloutCommand.IssueOp.class)) {
            if (op.kind() == OpKind.PRECHECK && op.target().kind() == TargetKind.DEVICE) {
                issuedPerGroup.merge(RolloutScenarios.groupOf(next, op.target()), 1, Integer::sum);
            }
        }
        assertThat(issuedPerGroup.size()).as("one group's prechecks at a time").isLessThanOrEqualTo(1);
        issuedPerGroup.forEach((group, n) -> {
            if (!batchesByGroup.containsKey(group)) {
                groupsStarted.add(group);
            }
            batchesByGroup.computeIfAbsent(group, g -> new ArrayList<>()).add(n);
        });
        Set<Integer> inFlightGroups = new HashSet<>();
        int inFlight = 0;
        for (InFlightOp op : next.inFlight()) {
            if (op.kind() == OpKind.PRECHECK && op.target().kind() == TargetKind.DEVICE) {
                inFlightGroups.add(RolloutScenarios.groupOf(next, op.target()));
                inFlight++;
            }
        }
        assertThat(inFlightGroups).as("device prechecks in flight").hasSizeLessThanOrEqualTo(1);
        for (int group : inFlightGroups) {
            int parallel = next.spec().maxParallel().forGroup(RolloutScenarios.groupSize(next, group));
            assertThat(inFlight).as("device prechecks in flight in group %s", group).isLessThanOrEqualTo(parallel);
        }
        return next;
    }
}
