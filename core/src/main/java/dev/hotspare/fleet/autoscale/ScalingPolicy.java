package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.MetricsTrigger;
import dev.hotspare.fleet.PolicyParameter;
import dev.hotspare.fleet.PolicyParameters;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.validation.Problem;

import java.util.List;

/**
 * A trigger type: how to measure utilization and how many rooms to add or remove when a trigger of this
 * type fires. Built-ins: {@code room}, {@code cpu}, {@code mem}, {@code legacy}; the Maestro 10 policies
 * ({@code roomOccupancy}, {@code fixedBuffer}) are {@link TargetPolicy}s. Add your own by registering it with
 * {@link ScalingPolicies#with(ScalingPolicy)} or listing it in
 * {@code META-INF/services/dev.hotspare.fleet.autoscale.ScalingPolicy} (see docs/autoscaling.md).
 *
 * <p>A policy may declare typed parameters ({@link #parameters()}): configs give them under
 * {@code metricsTrigger[].parameters}, config validation checks every value against the declaration (problems
 * name the parameter's path and the value), and the policy reads the checked values with {@link #parametersOf}.
 *
 * <p>Implementations must be pure and deterministic: same inputs, same answers; no I/O (whatever a policy
 * needs from outside arrives through the {@link PolicyContext}).
 */
public interface ScalingPolicy {

    /**
     * The type name used in {@code metricsTrigger[].type}; a DNS-1123 label (it becomes a history key).
     */
    String type();

    /**
     * The current utilization this policy measures, as a fraction; recorded as one point per tick and
     * compared against triggers' {@code usage} and {@code limit}.
     *
     * @param counts  the scheduler's rooms and matches
     * @param context the config, direction, resource readings and time
     */
    Utilization utilization(RoomStatusCounts counts, PolicyContext context);

    /**
     * Rooms to add (positive) or remove (negative) when {@code trigger} fires in {@code context.direction()}.
     * A delta pointing the wrong way (≤ 0 for up, ≥ 0 for down) is ignored by the autoscaler. The
     * autoscaler clamps the result to min, max, maxScaleUpAmount and the ready rooms.
     *
     * @param trigger the trigger that fired
     * @param counts  the scheduler's rooms and matches
     * @param context the config, direction, resource readings and time
     */
    int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context);

    /**
     * The parameters this policy takes, with their kinds, bounds and defaults; none by default. Config validation
     * rejects unknown, missing and out-of-range values with their paths.
     *
     * @return the declared parameters
     */
    default List<PolicyParameter> parameters() {
        return List.of();
    }

    /**
     * Rules between this policy's parameter values, run once each value passed its own bounds; none by default.
     *
     * @param path   where they are in the config; name a problem's path {@code path + "." + parameter}
     * @return the problems, empty when none
     */
    default List<Problem> checkParameters(PolicyParameters values, String path) {
        return List.of();
    }

    /**
     * The checked values of {@code trigger}'s parameters, with defaults filled in.
     *
     * @param trigger a trigger of this type from a validated config
     */
    default PolicyParameters parametersOf(MetricsTrigger trigger) {
        return PolicyParameters.of(parameters(), trigger.parameters());
    }
}
