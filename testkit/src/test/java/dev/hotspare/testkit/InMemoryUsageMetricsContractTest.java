package dev.hotspare.testkit;

import dev.hotspare.memory.InMemoryUsageMetrics;
import dev.hotspare.spi.ResourceMetric;
import dev.hotspare.spi.UsageMetrics;
import dev.hotspare.spi.UsageReading;

import java.math.BigDecimal;

class InMemoryUsageMetricsContractTest extends UsageMetricsContract {
    @Override
    protected UsageMetrics newMetrics() {
        return new InMemoryUsageMetrics();
    }

    @Override
    protected void prepare(UsageMetrics metrics, String scheduler, ResourceMetric metric, BigDecimal used, BigDecimal requested) {
        ((InMemoryUsageMetrics) metrics).set(scheduler, metric, UsageReading.of(used, requested));
    }
}
