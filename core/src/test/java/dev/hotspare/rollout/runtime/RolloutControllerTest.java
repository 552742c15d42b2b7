package dev.hotspare.rollout.runtime;

import dev.hotspare.memory.MemoryLeaderElection;
import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.Notice;
import dev.hotspare.rollout.OpKind;
import dev.hotspare.rollout.OpStatus;
import dev.hotspare.rollout.OpTimeouts;
import dev.hotspare.rollout.Phase;
import dev.hotspare.rollout.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.TargetStatus;
import dev.hotspare.rollout.spi.AgentOp;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.rollout.spi.OpReport;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RolloutControllerTest {

    private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
    private final MemoryRolloutStore store = new MemoryRolloutStore();
    private final MemoryRolloutAgentChannel channel = new MemoryRolloutAgentChannel();
    private final MemoryLeaderElection election = new MemoryLeaderElection();
    private final List<Notice> notices = new ArrayList<>();

    private static final Inventory INVENTORY = new Inventory(List.of(
            Target.node("node-1", "1.0"), Target.node("node-2", "1.0"),
            Target.device("dev-1", "1.0", Map.of("tier", "canary")), Target.device("dev-2", "1.0", Map.of("tier", "edge")),
            Target.device("dev-3", "1.0", Map.of("tier", "edge"))));

    private static RolloutSpec spec() {
        return RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").deviceGroup("tier", "edge").build();
    }

    private RolloutController controller() {
        return RolloutController.builder("r1").store(store).channel(channel).leaderElection(election)
                .scheduler(scheduler).notices(notices::add).build();
    }

    private RolloutState stored() {
        return store.load("r1").orElseThrow().state();
    }

    private void runUntilFinished() {
        for (int i = 0; i < 10_000 && !stored().terminal(); i++) {
            if (scheduler.nextDueTime().isEmpty()) {
                break;
            }
            scheduler.advanceTo(scheduler.nextDueTime().get());
        }
    }

    /** Campaigns {@code node} and runs its services agent while it leads. */
    private LeaderElection.Candidacy candidate(String node, SimulatedFleet fleet) {
        RolloutAgent[] agent = new RolloutAgent[1];
        return election.campaign(node, new LeaderElection.LeadershipListener() {
            @Override
            public void elected() {
                agent[0] = fleet.servicesAgent(node);
            }

            @Override
            public void revoked() {
                agent[0].close();
            }
        });
    }

    @Test
    void runsARolloutToTheEndOnVirtualTime() {
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, SimulatedFleet.allSucceedAfter(Duration.ofMinutes(3)));
        candidate("node-1", fleet);
        RolloutController.create(store, spec(), INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        runUntilFinished();
        assertThat(stored().phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(c.state()).contains(stored());
        assertThat(fleet.versions.values()).containsOnly("2.0");
        assertThat(fleet.executions.values()).containsOnly(1);
        assertThat(notices).extracting(Notice::kind).contains(Notice.Kind.STARTED, Notice.Kind.FINISHED);
    }

    @Test
    void theStateIsSavedBeforeAnOpIsPublished() {
        List<Boolean> savedFirst = new ArrayList<>();
        RolloutAgentChannel checking = new ForwardingChannel(channel) {
            @Override
            public void publish(AgentOp op) {
                savedFirst.add(stored().inFlight().stream().anyMatch(f -> f.opId().equals(op.opId())));
                super.publish(op);
            }
        };
        RolloutController.create(store, spec(), INVENTORY);
        RolloutController c = RolloutController.builder("r1").store(store).channel(checking).leaderElection(election)
                .scheduler(scheduler).build();
        c.start();
        c.submit(new RolloutEvent.Start());
        assertThat(savedFirst).containsExactly(true);
    }

    @Test
    void afterACrashANewControllerReissuesInFlightOpsAndAgentsAnswerFromTheirJournal() {
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, SimulatedFleet.allSucceedAfter(Duration.ofMinutes(3)));
        candidate("node-1", fleet);
        RolloutController.create(store, spec(), INVENTORY);
        RolloutController first = controller();
        first.start();
        first.submit(new RolloutEvent.Start());
        scheduler.advanceBy(Duration.ofMinutes(1));
        first.close();
        // node-1 finishes while no controller listens: its report is lost.
        scheduler.advanceBy(Duration.ofMinutes(5));
        assertThat(stored().inFlight()).extracting(f -> f.target().name()).containsExactly("node-1");
        RolloutController second = controller();
        second.start();
        assertThat(stored().inFlight()).extracting(f -> f.target().name()).containsExactly("node-2");
        runUntilFinished();
        assertThat(stored().phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(fleet.executions.values()).containsOnly(1);
        assertThat(fleet.agents.get(0).replayedReports()).isEqualTo(1);
    }

    @Test
    void anAgentThatNeverAnswersTimesOutOnTheVirtualClock() {
        RolloutSpec spec = spec().toBuilder().upgradeControlPlane(false)
                .timeouts(new OpTimeouts(Duration.ofMinutes(30), Duration.ofMinutes(30), Duration.ofMinutes(7))).build();
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY,
                op -> new SimulatedFleet.Behaviour(Duration.ofDays(1), RolloutAgent.Result.succeeded("too late")));
        RolloutController.create(store, spec, INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        scheduler.advanceBy(Duration.ofMinutes(6));
        assertThat(stored().phase()).isEqualTo(Phase.DEVICES);
        scheduler.advanceBy(Duration.ofMinutes(1));
        assertThat(stored().phase()).isEqualTo(Phase.FAILED);
        assertThat(stored().record(TargetRef.device("dev-1")).orElseThrow().message())
                .hasValueSatisfying(m -> assertThat(m).contains("timed out"));
        assertThat(channel.pending(TargetRef.device("dev-1"))).isEmpty();
        assertThat(fleet.executions).hasSize(1);
    }

    @Test
    void failedDevicesAreRetriedOnTimersInsideTheController() {
        RolloutSpec spec = spec().toBuilder().upgradeControlPlane(false).retry(2, Duration.ofMinutes(10)).build();
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, op -> new SimulatedFleet.Behaviour(
                Duration.ofMinutes(1), op.attempt() == 1 && op.target().name().equals("dev-1")
                ? RolloutAgent.Result.failed("flaky") : RolloutAgent.Result.succeeded("ok")));
        RolloutController.create(store, spec, INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        scheduler.advanceBy(Duration.ofMinutes(2));
        assertThat(stored().record(TargetRef.device("dev-1")).orElseThrow().status()).isEqualTo(TargetStatus.RETRY_WAIT);
        runUntilFinished();
        assertThat(stored().phase()).isEqualTo(Phase.SUCCEEDED);
        assertThat(fleet.executions).containsKeys("r1:upgrade:device:dev-1:1", "r1:upgrade:device:dev-1:2");
    }

    @Test
    void theServicesOpFollowsTheLeader() {
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, op -> new SimulatedFleet.Behaviour(
                op.target().kind() == dev.hotspare.rollout.TargetKind.SERVICES ? Duration.ofMinutes(20) : Duration.ofMinutes(1),
                RolloutAgent.Result.succeeded("ok")));
        LeaderElection.Candidacy node1 = candidate("node-1", fleet);
        candidate("node-2", fleet);
        RolloutController.create(store, spec(), INVENTORY);
        RolloutController c = controller();
        c.start();
        c.submit(new RolloutEvent.Start());
        scheduler.advanceBy(Duration.ofMinutes(5));
        assertThat(stored().inFlight()).singleElement().satisfies(op -> assertThat(op.address()).isEqualTo(TargetRef.servicesOn("node-1")));
        node1.close();
        assertThat(stored().leader()).contains("node-2");
        assertThat(stored().inFlight()).singleElement().satisfies(op -> {
            assertThat(op.address()).isEqualTo(TargetRef.servicesOn("node-2"));
            assertThat(op.attempt()).isEqualTo(2);
        });
        runUntilFinished();
        assertThat(stored().phase()).isEqualTo(Phase.SUCCEEDED);
    }

    @Test
    void aControllerThatLostASaveRaceRedecidesOnTheNewerState() {
        RolloutController.create(store, spec().toBuilder().upgradeControlPlane(false).build(), INVENTORY);
        RolloutController a = controller();
        a.start();
        RolloutController b = RolloutController.builder("r1").store(store).channel(new MemoryRolloutAgentChannel())
                .scheduler(scheduler).build();
        b.start();
        a.submit(new RolloutEvent.Start());
        // b still caches version 1; its Suspend must land on top of a's Start, not replace it.
        b.submit(new RolloutEvent.Suspend());
        assertThat(stored().phase()).isEqualTo(Phase.DEVICES);
        assertThat(stored().suspension()).isNotEqualTo(dev.hotspare.rollout.Suspension.NONE);
        assertThat(store.load("r1").orElseThrow().version()).isEqualTo(3);
    }

    @Test
    void aFailedSaveLosesOnlyThatEventAndNothingIsPublishedForIt() {
        RolloutController.create(store, spec(), INVENTORY);
        boolean[] down = {true};
        dev.hotspare.rollout.spi.RolloutStore flaky = new dev.hotspare.rollout.spi.RolloutStore() {
            @Override
            public java.util.Optional<dev.hotspare.rollout.spi.VersionedRollout> load(String name) {
                return store.load(name);
            }

            @Override
            public long save(RolloutState state, long expectedVersion) {
                if (down[0]) {
                    down[0] = false;
                    throw new dev.hotspare.spi.StoreUnavailableException("test rollout store", "database restarting");
                }
                return store.save(state, expectedVersion);
            }

            @Override
            public List<String> names() {
                return store.names();
            }

            @Override
            public boolean delete(String name) {
                return store.delete(name);
            }
        };
        RolloutController c = RolloutController.builder("r1").store(flaky).channel(channel).leaderElection(election)
                .scheduler(scheduler).build();
        c.start();
        c.submit(new RolloutEvent.Start());
        assertThat(stored().phase()).isEqualTo(Phase.PENDING);
        assertThat(channel.publishCount()).isZero();
        c.submit(new RolloutEvent.Start());
        assertThat(stored().phase()).isEqualTo(Phase.NODES);
        assertThat(channel.pending(TargetRef.node("node-1"))).hasSize(1);
    }

    @Test
    void startingARolloutThatIsNotStoredFailsClearly() {
        assertThatThrownBy(() -> controller().start()).isInstanceOf(IllegalStateException.class).hasMessageContaining("'r1'");
    }

    @Test
    void theAgentHelperExecutesEachOpIdOnceAndAnswersRepeatsFromItsJournal() {
        List<CompletableFuture<RolloutAgent.Result>> running = new ArrayList<>();
        List<OpReport> reports = new ArrayList<>();
        channel.onReport("r1", reports::add);
        RolloutAgent agent = RolloutAgent.start(channel, TargetRef.device("dev-1"), op -> {
            CompletableFuture<RolloutAgent.Result> f = new CompletableFuture<>();
            running.add(f);
            return f;
        }, RolloutAgent.CompletedOps.inMemory());
        AgentOp op = new AgentOp("r1", TargetRef.device("dev-1"), "r1:upgrade:device:dev-1:1", OpKind.UPGRADE, 1, "2.0");
        channel.publish(op);
        channel.publish(op);
        assertThat(running).hasSize(1);
        running.get(0).complete(RolloutAgent.Result.failed("no space"));
        channel.publish(op);
        assertThat(running).hasSize(1);
        assertThat(reports).hasSize(2).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(OpStatus.FAILED);
            assertThat(r.message()).isEqualTo("no space");
        });
        assertThat(agent.executions()).isEqualTo(1);
        assertThat(agent.replayedReports()).isEqualTo(1);
        agent.close();
        channel.publish(new AgentOp("r1", TargetRef.device("dev-1"), "other", OpKind.UPGRADE, 2, "2.0"));
        assertThat(running).hasSize(1);
    }

    /** Delegates every call; tests override one method to observe it. */
    private static class ForwardingChannel implements RolloutAgentChannel {
        private final RolloutAgentChannel delegate;

        ForwardingChannel(RolloutAgentChannel delegate) {
            this.delegate = delegate;
        }

        @Override
        public void publish(AgentOp op) {
            delegate.publish(op);
        }

        @Override
        public void cancel(String rollout, TargetRef target, String opId) {
            delegate.cancel(rollout, target, opId);
        }

        @Override
        public List<AgentOp> pending(TargetRef target) {
            return delegate.pending(target);
        }

        @Override
        public Subscription watch(TargetRef target, AgentListener listener) {
            return delegate.watch(target, listener);
        }

        @Override
        public void report(OpReport report) {
            delegate.report(report);
        }

        @Override
        public Subscription onReport(String rollout, Consumer<OpReport> listener) {
            return delegate.onReport(rollout, listener);
        }
    }
}
