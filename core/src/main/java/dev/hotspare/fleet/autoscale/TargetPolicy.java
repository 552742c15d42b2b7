package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.MetricsTrigger;
import dev.hotspare.fleet.PolicyParameters;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.autoscale.internal.FixedBufferPolicy;
import dev.hotspare.fleet.autoscale.internal.RoomOccupancyPolicy;

import java.util.Objects;

/**
 * A Maestro 10 policy: instead of firing on a window of points, it names the number of rooms the fleet should have
 * now ({@link #target}), and the autoscaler moves the fleet there, clamped to min and max and within the
 * directions' cooldowns. A config names one in {@code autoscaling.policy} with its {@link #parameters()}. Built-ins:
 * {@link RoomOccupancyPolicy} ({@code roomOccupancy}) and {@link FixedBufferPolicy} ({@code fixedBuffer}); register
 * your own like any {@link ScalingPolicy}. Its type name may be camel case ({@code roomOccupancy}): it records no
 * usage history, so it never becomes a key.
 *
 * <p>Pure and deterministic, like every policy.
 */
public interface TargetPolicy extends ScalingPolicy {

    /**
     * The number of rooms the fleet should have, before the autoscaler clamps it to min and max.
     *
     * @param counts     the scheduler's rooms and matches
     * @param parameters the checked values of the config's {@code autoscaling.policy.parameters}
     * @param context    the config, resource readings and time
     * @return the target
     */
    Target target(RoomStatusCounts counts, PolicyParameters parameters, PolicyContext context);

    /**
     * What a target policy asks for.
     *
     * @param rooms        the rooms the fleet should have (at least 0; the autoscaler clamps it to min and max)
     * @param mayScaleDown whether a target below the current rooms may be acted on now
     * @param explanation  one line for humans: how the target was reached
     */
    record Target(int rooms, boolean mayScaleDown, String explanation) {
        /**
         * Checks the parts.
         *
         * @throws IllegalArgumentException for a negative number of rooms
         * @param rooms the rooms the fleet should have (at least 0; the autoscaler clamps it to min and max)
         * @param mayScaleDown whether a target below the current rooms may be acted on now
         * @param explanation one line for humans: how the target was reached
         */
        public Target {
            if (rooms < 0) {
                throw new IllegalArgumentException("rooms: bad value '" + rooms + "': a target is at least 0 rooms");
            }
            Objects.requireNonNull(explanation, "explanation");
        }
    }

    /**
     * Undefined: a target policy records no points.
     *
     * @param counts  unused
     * @param context unused
     */
    @Override
    default Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
        return new Utilization.Undefined("a target policy measures no utilization");
    }

    /**
     * Zero: a target policy is not a trigger type (config validation refuses it in {@code metricsTrigger}).
     *
     * @param trigger unused
     * @param counts  unused
     * @param context unused
     * @return 0
     */
    @Override
    default int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
        return 0;
    }
}
