package dev.hotspare.fleet;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * One direction of autoscaling ({@code autoscaling.up} or {@code autoscaling.down}): an ordered list of
 * triggers (the first that fires wins) and the cooldown, or the older form with a single {@code trigger} (and an
 * optional {@code delta}), which is one {@code room} trigger, as Maestro 9.6.1 reads it.
 *
 * @param metricsTrigger triggers in evaluation order
 * @param cooldown       seconds since the last successful scale before this direction may scale again
 * @param delta          older form: accepted (a positive number of rooms) but not used — the room policy's formula
 *                       gives the delta, as in Maestro 9.6.1; only an explicit {@code type: legacy} trigger uses a
 *                       fixed delta
 * @param trigger        older form: the single trigger
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
public record ScalingSpec(List<MetricsTrigger> metricsTrigger, long cooldown, Optional<Integer> delta,
                          Optional<LegacyTrigger> trigger) {

    /** No triggers: this direction never scales. */
    public static final ScalingSpec NONE = new ScalingSpec(List.of(), 0, Optional.empty(), Optional.empty());

    /**
     * Fills in absent parts.
     *
     * @param metricsTrigger triggers in evaluation order
     * @param cooldown seconds since the last successful scale before this direction may scale again
     * @param delta older form: accepted (a positive number of rooms) but not used — the room policy's formula gives
     *         the delta, as in Maestro 9.6.1; only an explicit {@code type: legacy} trigger uses a fixed delta
     * @param trigger older form: the single trigger
     */
    public ScalingSpec {
        metricsTrigger = metricsTrigger == null ? List.of() : List.copyOf(metricsTrigger);
        delta = delta == null ? Optional.empty() : delta;
        trigger = trigger == null ? Optional.empty() : trigger;
    }

    /**
     * A direction with {@code triggers} and {@code cooldownSeconds}.
     *
     * @param cooldownSeconds the cooldown
     * @param triggers        the triggers, in evaluation order
     */
    public static ScalingSpec of(long cooldownSeconds, MetricsTrigger... triggers) {
        return new ScalingSpec(List.of(triggers), cooldownSeconds, Optional.empty(), Optional.empty());
    }

    /**
     * {@link #cooldown()} as a duration.
     */
    public Duration cooldownDuration() {
        return Duration.ofSeconds(cooldown);
    }

    /**
     * The triggers the autoscaler evaluates: {@code metricsTrigger} when given, otherwise the older
     * {@code trigger} form as one {@code room} trigger (its {@code delta} is not used: the room policy's formula
     * decides, as in Maestro 9.6.1).
     *
     * @return the triggers in evaluation order
     */
    public List<MetricsTrigger> triggers() {
        if (!metricsTrigger.isEmpty() || trigger.isEmpty()) {
            return metricsTrigger;
        }
        LegacyTrigger t = trigger.get();
        return List.of(new MetricsTrigger(TriggerTypes.ROOM, t.usage(), t.threshold(), t.time(), t.limit(), Optional.empty()));
    }
}
