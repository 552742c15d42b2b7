package dev.hotspare.fleet.autoscale.internal;

import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.autoscale.ScalingPolicy;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Direction;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;

/**
 * {@code legacy}: utilization is room occupancy (as {@code room}); the delta is the configured fixed
 * {@code delta}, positive for up and negative for down.
 */
public final class LegacyPolicy implements ScalingPolicy {

    @Override
    public String type() {
        return TriggerTypes.LEGACY;
    }

    @Override
    public Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
        return RoomPolicy.occupancy(counts);
    }

    @Override
    public int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
        int magnitude = trigger.delta().orElse(0);
        return context.direction() == Direction.UP ? magnitude : -magnitude;
    }
}
