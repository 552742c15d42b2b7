package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.memory.InMemoryUsageHistory;

class InMemoryUsageHistoryContractTest extends UsageHistoryContract {
    @Override
    protected UsageHistory newHistory() {
        return new InMemoryUsageHistory();
    }
}
