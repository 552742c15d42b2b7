package dev.hotspare.postgres;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.testkit.lock.LockStoreContract;

/** The lock store contract on a real PostgreSQL, with expiry judged by the database's clock. */
class PostgresLockStoreContractTest extends LockStoreContract {

    private static final String SCHEMA = "hs_test_locks";

    @Override
    protected LockStore createStore() {
        return new PostgresLockStore(TestSchemas.migrated(SCHEMA), SCHEMA);
    }
}
