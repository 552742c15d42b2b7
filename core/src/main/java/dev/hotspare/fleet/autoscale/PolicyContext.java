package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.SchedulerConfig;

import java.time.Instant;
import java.util.Map;

/**
 * What a {@link ScalingPolicy} may look at besides the room counts.
 *
 * @param config        the scheduler's config
 * @param direction     the direction being evaluated (for {@link ScalingPolicy#utilization}, {@link Direction#UP};
 *                      utilization must not depend on it)
 * @param resourceUsage the current cpu / mem readings (absent metrics count as unavailable)
 * @param now           the decision's time
 */
public record PolicyContext(SchedulerConfig config, Direction direction, Map<ResourceMetric, UsageReading> resourceUsage,
                            Instant now) {

    public PolicyContext {
        resourceUsage = resourceUsage == null ? Map.of() : Map.copyOf(resourceUsage);
    }

    /**
     * The reading of {@code metric}, unavailable when none was supplied.
     */
    public UsageReading usage(ResourceMetric metric) {
        UsageReading reading = resourceUsage.get(metric);
        return reading != null ? reading : UsageReading.unavailable("no " + metric.typeName() + " reading");
    }

    /**
     * This context for {@code other} direction.
     */
    public PolicyContext toward(Direction other) {
        return other == direction ? this : new PolicyContext(config, other, resourceUsage, now);
    }
}
