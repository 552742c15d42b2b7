package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.memory.InMemorySchedulerStore;

/** A release resumes after its owner dies, over the in-memory scheduler store. */
class InMemoryReleaseResumeContractTest extends ReleaseResumeContract {

    @Override
    protected SchedulerStore createStore() {
        return new InMemorySchedulerStore();
    }
}
