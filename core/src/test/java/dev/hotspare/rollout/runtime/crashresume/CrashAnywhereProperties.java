package dev.hotspare.rollout.runtime.crashresume;

import dev.hotspare.memory.MemoryLeaderElection;
import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutScenarios;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.TargetRecord;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.runtime.SimulatedFleet;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.rollout.spi.RolloutStore.VersionedRollout;
import dev.hotspare.testkit.property.Gen;
import dev.hotspare.testkit.property.Property;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import static dev.hotspare.testkit.property.PropertyCheck.forAll;
import static org.assertj.core.api.Assertions.assertThat;

/** §4 "crash anywhere": killing and rebuilding the controller never changes what a rollout does. */
class CrashAnywhereProperties {

    Gen<RolloutScenarios.Scenario> scenarios() {
        return RolloutScenarios.scenarios(true);
    }

    Gen<Set<Integer>> crashes() {
        return Gen.integers(1, 80).set(0, 6);
    }

    /**
     * Crash at random scheduler steps and right after random saves (before the decision's commands ran):
     * the outcome, every target's final status, the versions agents actually reached and the ops they
     * executed equal those of an uninterrupted run with the same agent behaviour, and no op id ever runs twice.
     */
    @Property
    void crashAnywhereEqualsAnUninterruptedRun() {
        record Args(RolloutScenarios.Scenario scenario, long behaviourSeed, int failPercent, Set<Integer> crashSteps, Set<Integer> crashAfterSaves) {
        }
        forAll(s -> new Args(
                scenarios().generate(s),
                Gen.longs().generate(s),
                Gen.integers(0, 40).generate(s),
                crashes().generate(s),
                crashes().generate(s))).check(args -> {
            RolloutScenarios.Scenario scenario = args.scenario();
            long behaviourSeed = args.behaviourSeed();
            int failPercent = args.failPercent();
            Set<Integer> crashSteps = args.crashSteps();
            Set<Integer> crashAfterSaves = args.crashAfterSaves();
            Function<AgentOp, SimulatedFleet.Behaviour> behaviour = op -> {
                long h = mix(behaviourSeed ^ op.opId().hashCode());
                int minutes = 1 + (int) Math.floorMod(h, 24L);
                boolean fails = Math.floorMod(h >>> 17, 100L) < failPercent;
                // A per-op sub-second offset: an agent's report never lands on the very instant of a controller timer
                // (op deadline, retry delay, window edge), which are whole minutes after the instant they were armed.
                // Two events at one instant may legitimately be handled in either order, and a restarted controller
                // re-arms its timer after reports already scheduled for that instant; without the offset the property
                // compared two valid orders (a timeout handled before or after a report due at the same second).
                long nanos = 1 + Math.floorMod(h >>> 23, 999_999_998L);
                return new SimulatedFleet.Behaviour(Duration.ofMinutes(minutes).plusNanos(nanos),
                        fails ? RolloutAgent.Result.failed("simulated failure") : RolloutAgent.Result.succeeded("ok"));
            };
            Outcome reference = run(scenario, behaviour, Set.of(), Set.of());
            Outcome crashed = run(scenario, behaviour, crashSteps, crashAfterSaves);
            assertThat(crashed).isEqualTo(reference);
            assertThat(reference.executions().values()).allMatch(n -> n == 1);
        });
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    record Outcome(Phase phase, Map<TargetRef, TargetStatus> statuses, Map<TargetRef, String> versions,
                   Map<String, Integer> executions, List<TargetRef> notStarted) {
    }

    /** Signals a simulated process death right after a successful save. */
    private static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash() {
            super("simulated crash", null, false, false);
        }
    }

    private static final class CrashingStore implements RolloutStore {
        private final RolloutStore delegate;
        private final Set<Integer> crashAfter;
        private int saves;
        Runnable onCrash = () -> { };
        boolean crashed;

        CrashingStore(RolloutStore delegate, Set<Integer> crashAfter) {
            this.delegate = delegate;
            this.crashAfter = crashAfter;
        }

        @Override
        public Optional<VersionedRollout> load(String name) {
            return delegate.load(name);
        }

        @Override
        public long save(RolloutState state, long expectedVersion) {
            // Every state the controller persists keeps the §4 safety invariants.
            RolloutScenarios.checkInvariants(state, List.of(), new java.util.HashSet<>());
            long v = delegate.save(state, expectedVersion);
            if (crashAfter.contains(++saves)) {
                crashed = true;
                onCrash.run();
                throw new SimulatedCrash();
            }
            return v;
        }

        @Override
        public List<String> names() {
            return delegate.names();
        }

        @Override
        public boolean delete(String name) {
            return delegate.delete(name);
        }
    }

    private static Outcome run(RolloutScenarios.Scenario scenario, Function<AgentOp, SimulatedFleet.Behaviour> behaviour,
                               Set<Integer> crashSteps, Set<Integer> crashAfterSaves) {
        VirtualTimeScheduler scheduler = new VirtualTimeScheduler(new VirtualClock(RolloutScenarios.T0));
        MemoryRolloutStore memory = new MemoryRolloutStore();
        CrashingStore store = new CrashingStore(memory, crashAfterSaves);
        MemoryRolloutAgentChannel channel = new MemoryRolloutAgentChannel();
        MemoryLeaderElection election = new MemoryLeaderElection();
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, scenario.inventory(), behaviour);
        election.campaign("node-0", new LeaderElection.LeadershipListener() {
            @Override
            public void elected() {
                fleet.servicesAgent("node-0");
            }

            @Override
            public void revoked() {
            }
        });
        RolloutController.create(memory, scenario.spec(), scenario.inventory());
        RolloutController[] controller = new RolloutController[1];
        store.onCrash = () -> controller[0].close();
        boolean first = true;
        int step = 0;
        while (step < 20_000) {
            if (first || store.crashed || crashSteps.contains(step)) {
                // Kill the process (drop all memory) and rebuild from the store until a start survives.
                do {
                    if (controller[0] != null) {
                        controller[0].close();
                    }
                    store.crashed = false;
                    controller[0] = newController(store, channel, election, scheduler);
                    quietly(controller[0]::start);
                    if (!store.crashed && memory.load("r1").orElseThrow().state().phase() == Phase.PENDING) {
                        // The operator's Start died with the process before it was saved: they send it again.
                        quietly(() -> controller[0].submit(new RolloutEvent.Start()));
                    }
                } while (store.crashed);
                first = false;
            }
            if (memory.load("r1").orElseThrow().state().terminal()) {
                break;
            }
            Optional<java.time.Instant> next = scheduler.nextDueTime();
            if (next.isEmpty()) {
                break;
            }
            scheduler.advanceTo(next.get());
            step++;
        }
        RolloutState end = memory.load("r1").orElseThrow().state();
        controller[0].close();
        Map<TargetRef, TargetStatus> statuses = end.targets().stream()
                .collect(Collectors.toMap(TargetRecord::target, TargetRecord::status, (a, b) -> a, TreeMap::new));
        return new Outcome(end.phase(), statuses, new TreeMap<>(fleet.versions), new TreeMap<>(fleet.executions), end.notStarted());
    }

    /** A crash can hit inside any call into the controller; the harness then starts another one. */
    private static void quietly(Runnable call) {
        try {
            call.run();
        } catch (SimulatedCrash expected) {
            // The harness notices store.crashed and starts another controller.
        }
    }

    private static RolloutController newController(RolloutStore store, MemoryRolloutAgentChannel channel,
                                                   LeaderElection election, VirtualTimeScheduler scheduler) {
        return RolloutController.builder("r1").store(store).channel(channel).leaderElection(election)
                .scheduler(scheduler).notices(n -> { }).build();
    }
}
