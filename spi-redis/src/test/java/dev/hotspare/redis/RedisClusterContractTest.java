package dev.hotspare.redis;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.testkit.fleet.RoomStatusStoreContract;
import dev.hotspare.testkit.fleet.UsageHistoryContract;
import dev.hotspare.testkit.lock.LockStoreContract;
import dev.hotspare.testkit.servers.TestRedisCluster;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import org.junit.jupiter.api.Nested;

/**
 * The Redis stores on a real three-master Redis Cluster (started from the embedded {@code redis-server} binary, slots
 * divided between the masters): the same contract suites as on one server. Every key of a scheduler carries its
 * hash tag, so every script touches one slot; lock keys are one key per script; listing locks scans every master.
 */
class RedisClusterContractTest {

    private static StatefulRedisClusterConnection<String, String> connection;

    static synchronized StatefulRedisClusterConnection<String, String> connection() {
        if (connection == null) {
            connection = TestRedisCluster.shared().connect();
        }
        return connection;
    }

    @Nested
    class Locks extends LockStoreContract {
        @Override
        protected LockStore createStore() {
            return new RedisLockStore(connection());
        }
    }

    @Nested
    class RoomStatuses extends RoomStatusStoreContract {
        @Override
        protected RoomStatusStore newStore() {
            return new RedisRoomStatusStore(connection());
        }
    }

    @Nested
    class Usage extends UsageHistoryContract {
        @Override
        protected UsageHistory newHistory() {
            return new RedisUsageHistory(connection());
        }
    }
}
