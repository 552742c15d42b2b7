package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutMachine.Decision;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test helper: drives {@link RolloutMachine} by hand, keeping the state, the clock and every command. */
final class MachineDriver {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    RolloutState state;
    Instant now = T0;
    Decision last;
    final List<RolloutCommand> all = new ArrayList<>();

    MachineDriver(RolloutSpec spec, Inventory inventory) {
        state = RolloutMachine.initial(spec, inventory);
    }

    static Inventory inventory(int nodes, Map<String, Integer> devicesPerLabel) {
        List<Target> targets = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            targets.add(Target.node("node-" + i, "1.0"));
        }
        devicesPerLabel.forEach((label, count) -> {
            for (int i = 1; i <= count; i++) {
                targets.add(Target.device(label + "-" + String.format("%02d", i), "1.0",
                        label.equals("none") ? Map.of() : Map.of("tier", label)));
            }
        });
        return new Inventory(targets);
    }

    Decision feed(RolloutEvent event) {
        last = RolloutMachine.decide(state, event, now);
        state = last.state();
        all.addAll(last.commands());
        return last;
    }

    Decision at(Duration after, RolloutEvent event) {
        now = now.plus(after);
        return feed(event);
    }

    Decision tick(Duration after) {
        now = now.plus(after);
        return feed(new RolloutEvent.Tick(now));
    }

    List<RolloutCommand.IssueOp> issued() {
        return last.commandsOf(RolloutCommand.IssueOp.class);
    }

    List<String> issuedNames() {
        return issued().stream().map(op -> op.target().name()).toList();
    }

    InFlightOp inFlight(String name) {
        return state.inFlight().stream().filter(op -> op.target().name().equals(name) || op.address().name().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError(name + " not in flight: " + state.inFlight()));
    }

    Decision report(String name, OpStatus status) {
        InFlightOp op = inFlight(name);
        return feed(new RolloutEvent.AgentReported(op.address(), op.opId(), op.attempt(), status, ""));
    }

    Decision succeed(String name) {
        return report(name, OpStatus.SUCCEEDED);
    }

    Decision fail(String name) {
        return report(name, OpStatus.FAILED);
    }

    /** Succeeds every op in flight now, one report at a time (ops issued meanwhile stay in flight). */
    void succeedAllInFlight() {
        List<InFlightOp> snapshot = List.copyOf(state.inFlight());
        for (InFlightOp op : snapshot) {
            feed(new RolloutEvent.AgentReported(op.address(), op.opId(), op.attempt(), OpStatus.SUCCEEDED, ""));
        }
    }

    TargetStatus status(TargetRef target) {
        return state.record(target).orElseThrow().status();
    }

    List<Notice.Kind> noticeKinds() {
        return last.commandsOf(RolloutCommand.Emit.class).stream().map(e -> e.notice().kind()).toList();
    }
}
