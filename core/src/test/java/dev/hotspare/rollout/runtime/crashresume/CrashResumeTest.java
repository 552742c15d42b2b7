package dev.hotspare.rollout.runtime.crashresume;

import dev.hotspare.memory.MemoryLeaderElection;
import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.Rig;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.runtime.SimulatedFleet;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.rollout.spi.RolloutAgentChannel.OpReport;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Save before acting, rebuild from the store after a crash, lost races and lost saves. */
class CrashResumeTest {

    private final Rig rig = new Rig();
    private final VirtualTimeScheduler scheduler = rig.scheduler;
    private final MemoryRolloutStore store = rig.store;
    private final MemoryRolloutAgentChannel channel = rig.channel;
    private final MemoryLeaderElection election = rig.election;

    private static final Inventory INVENTORY = Rig.INVENTORY;

    private static RolloutSpec spec() {
        return Rig.spec();
    }

    private RolloutController controller() {
        return rig.controller();
    }

    private RolloutState stored() {
        return rig.stored();
    }

    private void runUntilFinished() {
        rig.runUntilFinished();
    }

    private LeaderElection.Candidacy candidate(String node, SimulatedFleet fleet) {
        return rig.candidate(node, fleet);
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
        assertThat(stored().suspension()).isNotEqualTo(dev.hotspare.rollout.RolloutState.Suspension.NONE);
        assertThat(store.load("r1").orElseThrow().version()).isEqualTo(3);
    }

    @Test
    void aFailedSaveLosesOnlyThatEventAndNothingIsPublishedForIt() {
        RolloutController.create(store, spec(), INVENTORY);
        boolean[] down = {true};
        dev.hotspare.rollout.spi.RolloutStore flaky = new dev.hotspare.rollout.spi.RolloutStore() {
            @Override
            public java.util.Optional<dev.hotspare.rollout.spi.RolloutStore.VersionedRollout> load(String name) {
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
