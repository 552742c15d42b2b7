package dev.hotspare.rollout.runtime;

import dev.hotspare.memory.MemoryLeaderElection;
import dev.hotspare.memory.MemoryRolloutAgentChannel;
import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.Inventory;
import dev.hotspare.rollout.RolloutMachine.Notice;
import dev.hotspare.rollout.RolloutSpec;
import dev.hotspare.rollout.RolloutState;
import dev.hotspare.rollout.Target;
import dev.hotspare.rollout.spi.LeaderElection;
import dev.hotspare.time.VirtualTimeScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Test support shared by the runtime behaviour packages: in-memory store, channel and election on virtual
 * time, the notices a controller emitted, and the usual two-node, three-device inventory.
 */
public final class Rig {

    /** Two nodes; dev-1 canary, dev-2 and dev-3 edge. */
    public static final Inventory INVENTORY = new Inventory(List.of(
            Target.node("node-1", "1.0"), Target.node("node-2", "1.0"),
            Target.device("dev-1", "1.0", Map.of("tier", "canary")), Target.device("dev-2", "1.0", Map.of("tier", "edge")),
            Target.device("dev-3", "1.0", Map.of("tier", "edge"))));

    public final VirtualTimeScheduler scheduler = VirtualTimeScheduler.startingAt2026();
    public final MemoryRolloutStore store = new MemoryRolloutStore();
    public final MemoryRolloutAgentChannel channel = new MemoryRolloutAgentChannel();
    public final MemoryLeaderElection election = new MemoryLeaderElection();
    public final List<Notice> notices = new ArrayList<>();

    /** Rollout r1 to 2.0: canary group, then edge. */
    public static RolloutSpec spec() {
        return RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").deviceGroup("tier", "edge").build();
    }

    /** A controller of rollout {@code name} on this rig, recording notices. */
    public RolloutController controller(String name) {
        return RolloutController.builder(name).store(store).channel(channel).leaderElection(election)
                .scheduler(scheduler).notices(notices::add).build();
    }

    /** A controller of r1. */
    public RolloutController controller() {
        return controller("r1");
    }

    /** r1 as stored. */
    public RolloutState stored() {
        return stored("r1");
    }

    /** Rollout {@code name} as stored. */
    public RolloutState stored(String name) {
        return store.load(name).orElseThrow().state();
    }

    /** Advances virtual time timer by timer until r1 is over (or nothing is scheduled). */
    public void runUntilFinished() {
        for (int i = 0; i < 10_000 && !stored().terminal(); i++) {
            if (scheduler.nextDueTime().isEmpty()) {
                break;
            }
            scheduler.advanceTo(scheduler.nextDueTime().get());
        }
    }

    /** Campaigns {@code node} and runs its services agent while it leads. */
    public LeaderElection.Candidacy candidate(String node, SimulatedFleet fleet) {
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
}
