package dev.hotspare.fleet;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One autoscaling trigger (Maestro's {@code metricsTrigger} entry).
 *
 * @param type      the scaling policy that measures utilization and computes the delta: {@code room},
 *                  {@code cpu}, {@code mem}, {@code legacy} or a plug-in's type name
 * @param usage     target utilization in percent, 1..100: points above it count for an up trigger, points
 *                  below it for a down trigger
 * @param threshold percent of the window's points that must be beyond {@code usage} for the trigger to fire, 1..100
 * @param time      seconds of history the trigger looks at; the window holds {@code max(1, time / period)} points
 * @param limit     up triggers only: utilization (percent) at which to scale at once, ignoring cooldown and
 *                  points; when absent, 90 unless {@code usage} is already 90 or more
 * @param delta      fixed number of rooms for the {@code legacy} type (a magnitude; the direction gives the sign);
 *                   plug-in policies may use it too
 * @param parameters the parameters a plug-in policy declares for its triggers, checked against its declaration
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
public record MetricsTrigger(@Required String type, @Required int usage, @Required int threshold, @Required long time,
                             Optional<Integer> limit, Optional<Integer> delta, Map<String, Object> parameters) {

    /** Maestro's default limit for up triggers. */
    public static final int DEFAULT_LIMIT = 90;

    /**
     * Fills in absent optional parts.
     *
     * @param type the policy
     * @param usage target utilization, percent
     * @param threshold percent of points beyond usage needed
     * @param time seconds of history the trigger looks at; the window holds {@code max(1, time / period)} points
     * @param limit up triggers only: utilization (percent) at which to scale at once, ignoring cooldown and points;
     *         when absent, 90 unless {@code usage} is already 90 or more
     * @param delta fixed number of rooms for the {@code legacy} type (a magnitude; the direction gives the sign);
     *         plug-in policies may use it too
     * @param parameters the parameters a plug-in policy declares for its triggers, checked against its declaration
     */
    public MetricsTrigger {
        type = type == null ? "" : type;
        limit = limit == null ? Optional.empty() : limit;
        delta = delta == null ? Optional.empty() : delta;
        parameters = parameters == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * A trigger without parameters.
     *
     * @param type      the policy
     * @param usage     target utilization, percent
     * @param threshold percent of points beyond usage needed
     * @param time      seconds of history
     * @param limit     up triggers: utilization that scales at once
     * @param delta     fixed rooms (legacy, plug-ins)
     */
    public MetricsTrigger(String type, int usage, int threshold, long time, Optional<Integer> limit, Optional<Integer> delta) {
        this(type, usage, threshold, time, limit, delta, Map.of());
    }

    /**
     * A trigger without limit, delta or parameters.
     *
     * @param type        the policy
     * @param usage       target utilization, percent
     * @param threshold   percent of points beyond usage needed
     * @param timeSeconds seconds of history
     */
    public static MetricsTrigger of(String type, int usage, int threshold, long timeSeconds) {
        return new MetricsTrigger(type, usage, threshold, timeSeconds, Optional.empty(), Optional.empty());
    }

    /**
     * This trigger with {@code limit} set.
     *
     * @param newLimit the limit, percent
     * @return the new trigger
     */
    public MetricsTrigger withLimit(int newLimit) {
        return new MetricsTrigger(type, usage, threshold, time, Optional.of(newLimit), delta, parameters);
    }

    /**
     * This trigger with {@code delta} set.
     *
     * @param newDelta the fixed number of rooms
     * @return the new trigger
     */
    public MetricsTrigger withDelta(int newDelta) {
        return new MetricsTrigger(type, usage, threshold, time, limit, Optional.of(newDelta), parameters);
    }

    /**
     * This trigger with {@code newParameters}.
     *
     * @param newParameters the parameters
     */
    public MetricsTrigger withParameters(Map<String, Object> newParameters) {
        return new MetricsTrigger(type, usage, threshold, time, limit, delta, newParameters);
    }

    /**
     * {@link #time()} as a duration.
     */
    public Duration timeDuration() {
        return Duration.ofSeconds(time);
    }

    /**
     * The limit in force for an up trigger: the configured one, else {@value #DEFAULT_LIMIT} unless
     * {@code usage} is already at or above it (then there is none).
     *
     * @return the limit in force for an up trigger: the configured one, else {@value #DEFAULT_LIMIT} unless {@code
     *         usage} is already at or above it (then there is none)
     */
    public Optional<Integer> effectiveLimit() {
        if (limit.isPresent()) {
            return limit;
        }
        return usage >= DEFAULT_LIMIT ? Optional.empty() : Optional.of(DEFAULT_LIMIT);
    }
}
