package dev.hotspare.rollout.runtime.progress;

import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.kpi.RecordingKpis.Progress;
import dev.hotspare.memory.MemoryLeaderElection;
import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.RolloutProgress;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.runtime.SimulatedFleet;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Rollout progress reported by the {@link RolloutController}, on virtual time. */
class ProgressKpisTest {

    private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
    private final MemoryRolloutStore store = new MemoryRolloutStore();
    private final MemoryRolloutAgentChannel channel = new MemoryRolloutAgentChannel();
    private final MemoryLeaderElection election = new MemoryLeaderElection();
    private final RecordingKpis kpis = new RecordingKpis();

    private static final Inventory INVENTORY = new Inventory(List.of(
            Target.node("node-1", "1.0"), Target.node("node-2", "1.0"),
            Target.device("dev-1", "1.0", Map.of("tier", "canary")), Target.device("dev-2", "1.0", Map.of("tier", "edge")),
            Target.device("dev-3", "1.0", Map.of("tier", "edge"))));

    @Test
    void progressIsReportedAtStartThenOnEveryChangeUpToAllTargetsDone() {
        SimulatedFleet fleet = new SimulatedFleet(channel, scheduler, INVENTORY, SimulatedFleet.allSucceedAfter(Duration.ofMinutes(3)));
        RolloutAgent[] agent = new RolloutAgent[1];
        election.campaign("node-1", new LeaderElection.LeadershipListener() {
            @Override
            public void elected() {
                agent[0] = fleet.servicesAgent("node-1");
            }

            @Override
            public void revoked() {
                agent[0].close();
            }
        });
        RolloutController.create(store, RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary")
                .deviceGroup("tier", "edge").build(), INVENTORY);
        RolloutController controller = RolloutController.builder("r1").store(store).channel(channel)
                .leaderElection(election).scheduler(scheduler).listener(kpis).build();
        controller.start();
        controller.submit(new RolloutEvent.Start());
        for (int i = 0; i < 1_000 && scheduler.nextDueTime().isPresent(); i++) {
            scheduler.advanceTo(scheduler.nextDueTime().get());
        }

        int total = store.load("r1").orElseThrow().state().targets().size();
        List<RolloutProgress> progress = kpis.calls(Progress.class).stream()
                .peek(p -> assertThat(p.rollout()).isEqualTo("r1")).map(Progress::progress).toList();
        assertThat(total).as("two nodes, the services op, three devices").isEqualTo(6);
        assertThat(progress.get(0)).isEqualTo(new RolloutProgress(Phase.PENDING, 0, total));
        assertThat(progress.get(progress.size() - 1)).isEqualTo(new RolloutProgress(Phase.SUCCEEDED, total, total));
        assertThat(progress).extracting(RolloutProgress::phase).isSorted().contains(Phase.NODES, Phase.SERVICES, Phase.DEVICES);
        assertThat(progress).extracting(RolloutProgress::done).isSorted();
        for (int i = 1; i < progress.size(); i++) {
            assertThat(progress.get(i)).as("reported only on change").isNotEqualTo(progress.get(i - 1));
        }
    }
}
