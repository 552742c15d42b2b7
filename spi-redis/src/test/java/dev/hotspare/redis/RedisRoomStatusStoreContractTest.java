package dev.hotspare.redis;

import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.testkit.fleet.RoomStatusStoreContract;
import dev.hotspare.testkit.servers.TestRedis;

/** {@link RoomStatusStoreContract} on a real Redis (embedded, or {@code HOTSPARE_TEST_REDIS_URI}). */
class RedisRoomStatusStoreContractTest extends RoomStatusStoreContract {

    @Override
    protected RoomStatusStore newStore() {
        return new RedisRoomStatusStore(TestRedis.connection());
    }
}
