package dev.hotspare.fleet.autoscale.internal;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.ScalingPolicy;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;
import dev.hotspare.fleet.autoscale.UsageReading;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code cpu} and {@code mem}: utilization is summed usage / summed requests (from {@code UsageMetrics});
 * the delta follows Maestro's formula in exact decimals: {@code ratio = utilization / (usage/100)} rounded
 * to 2 places half away from zero, {@code delta = ceil(ratio · A) − A}.
 */
public class ResourcePolicy implements ScalingPolicy {

    private final ResourceMetric metric;

    /**
     * The policy for {@code metric}; see {@link CpuPolicy} and {@link MemPolicy}.
     */
    protected ResourcePolicy(ResourceMetric metric) {
        this.metric = metric;
    }

    @Override
    public final String type() {
        return metric.typeName();
    }

    @Override
    public final Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
        UsageReading reading = context.usage(metric);
        if (reading instanceof UsageReading.Available available) {
            return Utilization.of(available.utilization());
        }
        return new Utilization.Unavailable(((UsageReading.Unavailable) reading).reason());
    }

    @Override
    public final int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
        Utilization u = utilization(counts, context);
        if (!(u instanceof Utilization.Value value)) {
            return 0;
        }
        return resourceDelta(value.fraction(), counts.active(), trigger.usage());
    }

    /**
     * ceil(round2(utilization / (usage/100)) · A) − A, exactly.
     */
    public static int resourceDelta(BigDecimal utilization, int active, int usage) {
        BigDecimal ratio = utilization.movePointRight(2).divide(BigDecimal.valueOf(usage), 2, RoundingMode.HALF_UP);
        BigDecimal target = ratio.multiply(BigDecimal.valueOf(active)).setScale(0, RoundingMode.CEILING);
        return target.intValueExact() - active;
    }
}
