package dev.hotspare.examples.snippets;

import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.runtime.RolloutAgent;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.time.TaskScheduler;

import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.logging.Logger;

/** The wiring snippet of docs/rollouts.md; compiled, the names it uses are parameters. */
final class RolloutSnippets {

    private static final Logger log = Logger.getLogger(RolloutSnippets.class.getName());

    private RolloutSnippets() {
    }

    static void wire(RolloutStore store, RolloutSpec spec, Inventory inventory, RolloutAgentChannel channel,
                     LeaderElection election, ScheduledExecutorService executor, RolloutAgent.CompletedOps durableJournal) {
        // snippet: docs/rollouts.md
        RolloutController.create(store, spec, inventory);          // once
        RolloutController controller = RolloutController.builder(spec.name())
                .store(store).channel(channel).leaderElection(election)
                .scheduler(TaskScheduler.system(executor, Clock.systemUTC()))
                .notices(notice -> log.info(notice.message()))
                .build();
        controller.start();                                         // after every (re)start of the process
        controller.submit(new RolloutEvent.Start());                // once; Suspend / Resume / Abort any time

        // on each node / device:
        RolloutAgent.start(channel, TargetRef.device("nic-07"), op -> upgradeFirmware(op.version()), durableJournal);
        // end snippet
    }

    private static CompletionStage<RolloutAgent.Result> upgradeFirmware(String version) {
        return CompletableFuture.completedFuture(RolloutAgent.Result.succeeded("firmware " + version));
    }
}
