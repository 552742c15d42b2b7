package dev.hotspare.postgres;

import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.testkit.pool.ClaimStoreContract;

import java.util.concurrent.ThreadLocalRandom;

/** The claim store contract on a real PostgreSQL (watch through LISTEN/NOTIFY). */
class PostgresClaimStoreContractTest extends ClaimStoreContract {

    private static final String SCHEMA = "hs_test_claims";
    private static PostgresClaimStore store;

    @Override
    protected ClaimStore store() {
        synchronized (PostgresClaimStoreContractTest.class) {
            if (store == null) {
                store = new PostgresClaimStore(TestSchemas.migrated(SCHEMA), SCHEMA);
            }
            return store;
        }
    }

    @Override
    protected String freshPool() {
        return "p" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffffL);
    }
}
