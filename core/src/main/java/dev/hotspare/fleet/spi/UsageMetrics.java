package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;

/**
 * Resource usage of a scheduler's rooms against their requests (Kubernetes metrics API in the Kubernetes
 * adapter). Must not throw for an unreachable source: it answers {@link UsageReading.Unavailable} instead,
 * and the autoscaler then decides nothing ("metrics unavailable") rather than guessing.
 */
public interface UsageMetrics {

    /**
     * The current usage of {@code metric} over all rooms of {@code scheduler}.
     */
    UsageReading usage(String scheduler, ResourceMetric metric);

    /**
     * A source with no readings: every answer is unavailable. For schedulers with room triggers only.
     */
    static UsageMetrics none() {
        return (scheduler, metric) -> UsageReading.unavailable("no usage metrics source configured");
    }
}
