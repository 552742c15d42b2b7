package dev.hotspare.testkit.lock;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.memory.InMemoryLockStore;

import java.time.Clock;

/**
 * The in-memory store on the system clock passes the contract with its default real-time hooks too — the
 * configuration the Redis, PostgreSQL and Kubernetes stores use, proven here first.
 */
class InMemoryLockStoreRealTimeContractTest extends LockStoreContract {

    @Override
    protected LockStore createStore() {
        return new InMemoryLockStore(Clock.systemUTC());
    }
}
