package dev.hotspare.examples.rollout;

import dev.hotspare.memory.MemoryLeaderElection;
import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.TargetRecord;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.time.VirtualTimeScheduler;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A staged rollout of 3 control-plane nodes and 40 devices in 3 label groups (canary, edge, core), with
 * simulated agents (some fail once and are retried, one fails for good within {@code maxFailures}) and a
 * controller that crashes midway and is rebuilt from the store. Runs on virtual time: hours of rollout in
 * well under a second.
 *
 * <p>Run: {@code java -cp examples/target/hotspare-examples.jar dev.hotspare.examples.rollout.RolloutDemo}
 */
public final class RolloutDemo {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final Duration CRASH_AT = Duration.ofMinutes(180);

    /**
     * What the demo ended with.
     *
     * @param phase            the rollout's end state
     * @param upgradedDevices  devices the agents actually moved to the new version
     * @param failedDevices    devices the rollout recorded as failed
     * @param maxExecutionsPerOp the most times any op id was executed by an agent (1 = never twice)
     * @param crashes          controller crashes survived
     * @param finishedAfter    virtual time from start to the end state
     */
    public record Result(Phase phase, int upgradedDevices, int failedDevices, int maxExecutionsPerOp, int crashes,
                         Duration finishedAfter) {
    }

    private RolloutDemo() {
    }

    public static void main(String[] args) {
        Result result = run(System.out);
        System.exit(result.phase() == Phase.SUCCEEDED ? 0 : 1);
    }

    /** Runs the demo, printing progress to {@code out}. */
    public static Result run(PrintStream out) {
        VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
        Instant start = scheduler.now();
        MemoryRolloutStore store = new MemoryRolloutStore();
        MemoryRolloutAgentChannel channel = new MemoryRolloutAgentChannel();
        MemoryLeaderElection election = new MemoryLeaderElection();

        Inventory inventory = inventory();
        RolloutSpec spec = RolloutSpec.builder("fleet-2-1", "2.1.0")
                .deviceGroup("tier", "canary").deviceGroup("tier in (edge)").deviceGroup("tier", "core")
                .strategy(DeviceStrategy.EXPONENTIAL).maxParallel(8).prechecks(true).maxFailures(2)
                .retry(2, Duration.ofMinutes(5))
                .timeouts(new OpTimeouts(Duration.ofMinutes(20), Duration.ofMinutes(30), Duration.ofMinutes(12)))
                .build();

        // Agents: one per node and device; the services agent runs on whichever node leads.
        Map<String, Integer> executions = new ConcurrentHashMap<>();
        Map<TargetRef, String> versions = new ConcurrentHashMap<>();
        RolloutAgent.OpHandler handler = op -> simulate(op, scheduler, executions, versions);
        List<RolloutAgent> agents = new ArrayList<>();
        for (Target t : inventory.targets()) {
            versions.put(t.ref(), t.version());
            agents.add(RolloutAgent.start(channel, t.ref(), handler, RolloutAgent.CompletedOps.inMemory()));
        }
        for (Target node : inventory.ofKind(TargetKind.NODE)) {
            election.campaign(node.name(), new LeaderElection.LeadershipListener() {
                private RolloutAgent servicesAgent;

                @Override
                public void elected() {
                    out.printf("[%s] %s won the election and starts its services agent%n", CLOCK.format(scheduler.now()), node.name());
                    servicesAgent = RolloutAgent.start(channel, TargetRef.servicesOn(node.name()), handler,
                            RolloutAgent.CompletedOps.inMemory());
                }

                @Override
                public void revoked() {
                    servicesAgent.close();
                }
            });
        }

        RolloutController.create(store, spec, inventory);
        RolloutController controller = controller(store, channel, election, scheduler, out);
        controller.start();
        controller.submit(new RolloutEvent.Start());

        int crashes = 0;
        while (!stored(store).terminal() && scheduler.nextDueTime().isPresent()) {
            Instant next = scheduler.nextDueTime().get();
            if (crashes == 0 && !next.isBefore(start.plus(CRASH_AT))) {
                scheduler.advanceTo(start.plus(CRASH_AT));
                out.printf("[%s] !! controller process crashed (in-flight: %s); a new one rebuilds from the store%n",
                        CLOCK.format(scheduler.now()), stored(store).inFlight().stream().map(op -> op.target().name()).toList());
                controller.close();
                crashes++;
                scheduler.advanceBy(Duration.ofMinutes(4));
                int inFlight = stored(store).inFlight().size();
                out.printf("[%s] new controller re-issues %d in-flight op(s); agents answer finished ones from their journals%n",
                        CLOCK.format(scheduler.now()), inFlight);
                controller = controller(store, channel, election, scheduler, out);
                controller.start();
                continue;
            }
            scheduler.advanceTo(next);
        }
        controller.close();
        long replayed = agents.stream().mapToLong(RolloutAgent::replayedReports).sum();
        agents.forEach(RolloutAgent::close);

        RolloutState end = stored(store);
        int upgraded = (int) versions.entrySet().stream()
                .filter(e -> e.getKey().kind() == TargetKind.DEVICE && e.getValue().equals("2.1.0")).count();
        int failed = (int) end.targets().stream()
                .filter(r -> r.target().kind() == TargetKind.DEVICE && r.status() == TargetStatus.FAILED).count();
        int maxExecutions = executions.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        Duration took = Duration.between(start, end.finishedAt().orElse(scheduler.now()));
        out.printf("%nrollout %s ended %s after %s (virtual time): %d/40 devices upgraded, %d failed, %d report(s) dropped as stale,"
                        + " %d re-issued op(s) answered from agent journals%n",
                spec.name(), end.phase(), took, upgraded, failed, end.droppedReports(), replayed);
        for (TargetRecord r : end.targets()) {
            if (r.status() == TargetStatus.FAILED) {
                out.printf("  failed: %s (%s)%n", r.target(), r.message().orElse(""));
            }
        }
        return new Result(end.phase(), upgraded, failed, maxExecutions, crashes, took);
    }

    private static RolloutController controller(MemoryRolloutStore store, MemoryRolloutAgentChannel channel,
                                                MemoryLeaderElection election, VirtualTimeScheduler scheduler, PrintStream out) {
        return RolloutController.builder("fleet-2-1").store(store).channel(channel).leaderElection(election)
                .scheduler(scheduler).notices(n -> print(out, scheduler, n, store)).build();
    }

    private static void print(PrintStream out, VirtualTimeScheduler scheduler, Notice notice, MemoryRolloutStore store) {
        switch (notice.kind()) {
            case PRECHECK_PASSED, REPORT_DROPPED, INVENTORY_CHANGED -> {
                return;
            }
            default -> { }
        }
        String progress = "";
        if (notice.kind() == Notice.Kind.TARGET_SUCCEEDED || notice.kind() == Notice.Kind.TARGET_FAILED) {
            RolloutState s = stored(store);
            long done = s.targets().stream().filter(r -> r.status().terminal()).count();
            progress = String.format("  [%d/%d done]", done, s.targets().size());
        }
        out.printf("[%s] %s%s%n", CLOCK.format(scheduler.now()), notice.message(), progress);
    }

    private static RolloutState stored(MemoryRolloutStore store) {
        return store.load("fleet-2-1").orElseThrow().state();
    }

    /** 3 nodes; 4 canary, 16 edge and 20 core devices. */
    static Inventory inventory() {
        List<Target> targets = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            targets.add(Target.node("node-" + i, "2.0.3"));
        }
        for (int i = 1; i <= 40; i++) {
            String tier = i <= 4 ? "canary" : i <= 20 ? "edge" : "core";
            targets.add(Target.device(String.format("nic-%02d", i), "2.0.3", Map.of("tier", tier)));
        }
        return new Inventory(targets);
    }

    /**
     * A simulated agent: ops take a few virtual minutes; every seventh device fails its first upgrade
     * attempt (then succeeds on retry); nic-33 is broken and fails every time.
     */
    private static CompletableFuture<RolloutAgent.Result> simulate(AgentOp op, VirtualTimeScheduler scheduler,
                                                                 Map<String, Integer> executions, Map<TargetRef, String> versions) {
        executions.merge(op.opId(), 1, Integer::sum);
        int n = Math.floorMod(op.opId().hashCode(), 6);
        Duration took = Duration.ofMinutes(op.target().kind() == TargetKind.DEVICE ? 3 + n : 6 + n);
        boolean device = op.target().kind() == TargetKind.DEVICE;
        int index = device ? Integer.parseInt(op.target().name().substring(4)) : 0;
        boolean fails = op.kind() == OpKind.UPGRADE && device
                && (index == 33 || (index % 7 == 0 && op.attempt() == 1));
        CompletableFuture<RolloutAgent.Result> result = new CompletableFuture<>();
        scheduler.schedule(took, () -> {
            if (fails) {
                result.complete(new RolloutAgent.Result(OpStatus.FAILED, index == 33 ? "flash chip not responding" : "checksum mismatch"));
                return;
            }
            if (op.kind() == OpKind.UPGRADE && op.target().kind() != TargetKind.SERVICES) {
                versions.put(op.target(), op.version());
            }
            result.complete(RolloutAgent.Result.succeeded(op.kind() == OpKind.PRECHECK ? "ready" : "now on " + op.version()));
        });
        return result;
    }
}
