package dev.hotspare.testkit.fleet;

import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.spi.SchedulerStore;

/** The in-memory scheduler store passes the contract. */
class InMemorySchedulerStoreContractTest extends SchedulerStoreContract {

    @Override
    protected SchedulerStore createStore() {
        return new InMemorySchedulerStore();
    }
}
