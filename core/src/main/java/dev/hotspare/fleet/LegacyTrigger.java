package dev.hotspare.fleet;

import java.util.Optional;

/**
 * The older single-trigger form of a scaling direction ({@code delta} + {@code trigger}); it behaves as one
 * {@code room} {@link MetricsTrigger} (the room policy's formula gives the delta), as Maestro 9.6.1 reads it.
 *
 * @param usage     target utilization in percent (rooms occupied)
 * @param time      seconds of history
 * @param threshold percent of points beyond {@code usage} needed
 * @param limit     as {@link MetricsTrigger#limit()}
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
public record LegacyTrigger(@Required int usage, @Required long time, @Required int threshold, Optional<Integer> limit) {

    /**
     * Fills in an absent limit.
     *
     * @param usage target utilization in percent (rooms occupied)
     * @param time seconds of history
     * @param threshold percent of points beyond {@code usage} needed
     * @param limit as {@link MetricsTrigger#limit()}
     */
    public LegacyTrigger {
        limit = limit == null ? Optional.empty() : limit;
    }
}
