package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.MetricsTrigger;
import dev.hotspare.fleet.RoomStatusCounts;

/**
 * A trigger type: how to measure utilization and how many rooms to add or remove when a trigger of this
 * type fires. Built-ins: {@code room}, {@code cpu}, {@code mem}, {@code legacy}. Add your own by
 * registering it with {@link ScalingPolicies#with(ScalingPolicy)} or listing it in
 * {@code META-INF/services/dev.hotspare.fleet.autoscale.ScalingPolicy} (see docs/autoscaling.md).
 *
 * <p>Implementations must be pure and deterministic: same inputs, same answers; no I/O (whatever a policy
 * needs from outside arrives through the {@link PolicyContext}).
 */
public interface ScalingPolicy {

    /** The type name used in {@code metricsTrigger[].type}; a DNS-1123 label (it becomes a history key). */
    String type();

    /**
     * The current utilization this policy measures, as a fraction; recorded as one point per tick and
     * compared against triggers' {@code usage} and {@code limit}.
     */
    Utilization utilization(RoomStatusCounts counts, PolicyContext context);

    /**
     * Rooms to add (positive) or remove (negative) when {@code trigger} fires in {@code context.direction()}.
     * A delta pointing the wrong way (≤ 0 for up, ≥ 0 for down) is ignored by the autoscaler. The
     * autoscaler clamps the result to min, max, maxScaleUpAmount and the ready rooms.
     */
    int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context);
}
