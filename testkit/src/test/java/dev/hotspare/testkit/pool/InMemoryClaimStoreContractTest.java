package dev.hotspare.testkit.pool;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.pool.spi.ClaimStore;

import java.util.concurrent.atomic.AtomicInteger;

/** The in-memory claim store against the shared {@link ClaimStoreContract}. */
class InMemoryClaimStoreContractTest extends ClaimStoreContract {

    private static final AtomicInteger POOLS = new AtomicInteger();

    @Override
    protected ClaimStore store() {
        return new InMemoryClaimStore();
    }

    @Override
    protected String freshPool() {
        return "pool-" + POOLS.incrementAndGet();
    }
}
