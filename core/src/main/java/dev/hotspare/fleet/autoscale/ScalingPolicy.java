package dev.hotspare.fleet.autoscale;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.hotspare.fleet.PolicyTypes.PolicyParameter;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.autoscale.internal.FixedBufferPolicy;
import dev.hotspare.fleet.autoscale.internal.RoomOccupancyPolicy;
import dev.hotspare.validation.Problem;
import java.math.BigDecimal;
import java.util.Objects;
import java.util.Map;
import java.time.Instant;
import java.util.Locale;

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

    /** Which way a trigger scales. */
    public enum Direction {
        /** Add rooms. */
        UP,
        /** Remove rooms. */
        DOWN;

        /**
         * {@code up} / {@code down}, as in the config.
         */
        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

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

    /**
     * A policy's current utilization: a value (a fraction, 1 = 100%; cpu and mem may exceed 1), undefined
     * (no rooms, so no share of them is occupied — no trigger of that type fires), or unavailable (the usage
     * source could not answer — the autoscaler then decides nothing).
     */
    public sealed interface Utilization {

        /**
         * A measured utilization.
         *
         * @param fraction 0.75 for 75%
         */
        record Value(BigDecimal fraction) implements Utilization {
            public Value {
                if (fraction == null) {
                    throw new IllegalArgumentException("fraction is required");
                }
            }

            /**
             * Whether {@code fraction × 100 > percent}. Exact.
             */
            public boolean above(int percent) {
                return fraction.movePointRight(2).compareTo(BigDecimal.valueOf(percent)) > 0;
            }

            /**
             * Whether {@code fraction × 100 < percent}. Exact.
             */
            public boolean below(int percent) {
                return fraction.movePointRight(2).compareTo(BigDecimal.valueOf(percent)) < 0;
            }

            /**
             * Whether {@code fraction × 100 >= percent}. Exact.
             */
            public boolean atLeast(int percent) {
                return !below(percent);
            }
        }

        /**
         * No utilization exists (e.g. no rooms at all); not an error.
         *
         * @param why for the decision's explanation
         */
        record Undefined(String why) implements Utilization {
        }

        /**
         * The source could not answer; the autoscaler decides nothing rather than guess.
         *
         * @param why for the decision's explanation
         */
        record Unavailable(String why) implements Utilization {
        }

        /**
         * A value of {@code fraction}.
         *
         * @param fraction 0.75 for 75%
         */
        static Utilization of(BigDecimal fraction) {
            return new Value(fraction);
        }
    }
}
