package dev.hotspare.memory;

import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.validation.Names;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link UsageMetrics} whose readings are set by the caller: for tests, simulations and the CLI replay.
 * A scheduler/metric with no reading set answers unavailable.
 */
public final class InMemoryUsageMetrics implements UsageMetrics {

    private final Map<String, UsageReading> readings = new ConcurrentHashMap<>();

    /**
     * Sets the reading returned for {@code scheduler} and {@code metric}.
     */
    public void set(String scheduler, ResourceMetric metric, UsageReading reading) {
        Names.requireDns1123Label("scheduler", scheduler);
        readings.put(scheduler + "/" + metric.typeName(), reading);
    }

    /**
     * Forgets every reading of {@code scheduler}.
     */
    public void clear(String scheduler) {
        readings.keySet().removeIf(k -> k.startsWith(scheduler + "/"));
    }

    @Override
    public UsageReading usage(String scheduler, ResourceMetric metric) {
        Names.requireDns1123Label("scheduler", scheduler);
        return readings.getOrDefault(scheduler + "/" + metric.typeName(),
                UsageReading.unavailable("no " + metric.typeName() + " reading for scheduler " + scheduler));
    }
}
