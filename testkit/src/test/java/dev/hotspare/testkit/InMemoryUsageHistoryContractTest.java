package dev.hotspare.testkit;

import dev.hotspare.memory.InMemoryUsageHistory;
import dev.hotspare.spi.UsageHistory;

class InMemoryUsageHistoryContractTest extends UsageHistoryContract {
    @Override
    protected UsageHistory newHistory() {
        return new InMemoryUsageHistory();
    }
}
