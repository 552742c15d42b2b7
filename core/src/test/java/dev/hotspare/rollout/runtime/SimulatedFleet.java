package dev.hotspare.rollout.runtime;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.time.TaskScheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Test helper: one {@link RolloutAgent} per inventory target plus services agents, each op finishing after a
 * virtual-time delay with an outcome chosen by a behaviour function. Records what agents actually did.
 */
public final class SimulatedFleet {

    /** What an agent does with an op: how long it takes and how it ends. */
    public record Behaviour(Duration duration, RolloutAgent.Result result) {
    }

    private final RolloutAgentChannel channel;
    private final TaskScheduler scheduler;
    private final Function<AgentOp, Behaviour> behaviour;
    /** The version each target's agent reached. */
    public final Map<TargetRef, String> versions = new TreeMap<>();
    /** Times each op id was executed. */
    public final Map<String, Integer> executions = new ConcurrentHashMap<>();
    /** Every agent started, in order. */
    public final List<RolloutAgent> agents = new ArrayList<>();
    private final Map<String, RolloutAgent.CompletedOps> journals = new ConcurrentHashMap<>();

    public SimulatedFleet(RolloutAgentChannel channel, TaskScheduler scheduler, Inventory inventory, Function<AgentOp, Behaviour> behaviour) {
        this.channel = channel;
        this.scheduler = scheduler;
        this.behaviour = behaviour;
        for (Target t : inventory.targets()) {
            versions.put(t.ref(), t.version());
            agents.add(RolloutAgent.start(channel, t.ref(), this::execute, journal(t.ref().toString())));
        }
    }

    /** Starts the services agent of {@code node} (call when it becomes leader). */
    public RolloutAgent servicesAgent(String node) {
        RolloutAgent agent = RolloutAgent.start(channel, TargetRef.servicesOn(node), this::execute, journal("services/" + node));
        agents.add(agent);
        return agent;
    }

    private RolloutAgent.CompletedOps journal(String key) {
        return journals.computeIfAbsent(key, k -> RolloutAgent.CompletedOps.inMemory());
    }

    private CompletableFuture<RolloutAgent.Result> execute(AgentOp op) {
        executions.merge(op.opId(), 1, Integer::sum);
        Behaviour b = behaviour.apply(op);
        CompletableFuture<RolloutAgent.Result> done = new CompletableFuture<>();
        scheduler.schedule(b.duration(), () -> {
            if (op.kind() == OpKind.UPGRADE && b.result().status() == dev.hotspare.rollout.RolloutState.OpStatus.SUCCEEDED
                    && op.target().kind() != dev.hotspare.rollout.Target.TargetKind.SERVICES) {
                versions.put(op.target(), op.version());
            }
            done.complete(b.result());
        });
        return done;
    }

    /** Always succeeds after {@code duration}. */
    public static Function<AgentOp, Behaviour> allSucceedAfter(Duration duration) {
        return op -> new Behaviour(duration, RolloutAgent.Result.succeeded("ok"));
    }
}
