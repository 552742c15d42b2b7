package dev.hotspare.postgres;

import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.testkit.fleet.ReleaseResumeContract;

/** A release resumes after its owner dies, over the scheduler store on a real PostgreSQL. */
class PostgresReleaseResumeContractTest extends ReleaseResumeContract {

    private static final String SCHEMA = "hs_test_release_resume";

    @Override
    protected SchedulerStore createStore() {
        return new PostgresSchedulerStore(TestSchemas.migrated(SCHEMA), SCHEMA);
    }
}
