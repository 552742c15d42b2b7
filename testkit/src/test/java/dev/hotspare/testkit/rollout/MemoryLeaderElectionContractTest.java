package dev.hotspare.testkit.rollout;

import dev.hotspare.memory.MemoryLeaderElection;
import dev.hotspare.rollout.spi.LeaderElection;

class MemoryLeaderElectionContractTest extends LeaderElectionContract {
    @Override
    protected LeaderElection newElection() {
        return new MemoryLeaderElection();
    }
}
