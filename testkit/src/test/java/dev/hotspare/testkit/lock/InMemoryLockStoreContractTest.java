package dev.hotspare.testkit.lock;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;

import java.time.Duration;

/** The in-memory store on virtual time passes the lock contract. */
class InMemoryLockStoreContractTest extends LockStoreContract {

    private final VirtualClock clock = VirtualClock.atEpochOf2026();

    @Override
    protected LockStore createStore() {
        return new InMemoryLockStore(clock);
    }

    @Override
    protected Duration ttl() {
        return Duration.ofSeconds(30);
    }

    @Override
    protected void advanceStoreTime(Duration duration) {
        clock.advance(duration);
    }
}
