package dev.hotspare.redis;

import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.testkit.fleet.UsageHistoryContract;
import dev.hotspare.testkit.servers.TestRedis;

/** {@link UsageHistoryContract} on a real Redis (embedded, or {@code HOTSPARE_TEST_REDIS_URI}). */
class RedisUsageHistoryContractTest extends UsageHistoryContract {

    @Override
    protected UsageHistory newHistory() {
        return new RedisUsageHistory(TestRedis.connection());
    }
}
