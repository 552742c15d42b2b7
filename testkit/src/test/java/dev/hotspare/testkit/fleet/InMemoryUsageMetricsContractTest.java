package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.memory.InMemoryUsageMetrics;

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
