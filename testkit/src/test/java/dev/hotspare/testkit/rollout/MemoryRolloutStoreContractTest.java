package dev.hotspare.testkit.rollout;

import dev.hotspare.memory.MemoryRolloutStore;
import dev.hotspare.rollout.spi.RolloutStore;

class MemoryRolloutStoreContractTest extends RolloutStoreContract {
    @Override
    protected RolloutStore newStore() {
        return new MemoryRolloutStore();
    }
}
