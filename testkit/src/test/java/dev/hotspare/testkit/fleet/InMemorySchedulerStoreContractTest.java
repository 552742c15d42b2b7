package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.memory.InMemorySchedulerStore;

/** The in-memory scheduler store passes the contract. */
class InMemorySchedulerStoreContractTest extends SchedulerStoreContract {

    @Override
    protected SchedulerStore createStore() {
        return new InMemorySchedulerStore();
    }
}
