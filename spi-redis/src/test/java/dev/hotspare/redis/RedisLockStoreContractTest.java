package dev.hotspare.redis;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.testkit.lock.LockStoreContract;
import dev.hotspare.testkit.servers.TestRedis;

/** {@link LockStoreContract} on a real Redis (embedded, or {@code HOTSPARE_TEST_REDIS_URI}); docs/locks.md shows it. */
// snippet: docs/locks.md
class RedisLockStoreContractTest extends LockStoreContract {

    @Override
    protected LockStore createStore() {
        return new RedisLockStore(TestRedis.connection());
    }
}
// end snippet
