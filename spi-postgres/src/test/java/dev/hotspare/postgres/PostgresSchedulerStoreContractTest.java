package dev.hotspare.postgres;

import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.testkit.fleet.SchedulerStoreContract;

/** The scheduler store contract on a real PostgreSQL. */
class PostgresSchedulerStoreContractTest extends SchedulerStoreContract {

    private static final String SCHEMA = "hs_test_schedulers";

    @Override
    protected SchedulerStore createStore() {
        return new PostgresSchedulerStore(TestSchemas.migrated(SCHEMA), SCHEMA);
    }
}
