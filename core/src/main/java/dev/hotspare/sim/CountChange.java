package dev.hotspare.sim;

import java.time.Instant;
import java.util.Objects;

/**
 * A change of a replayed pool's static runningCount at an instant: a schedule an operator (or a policy that knows
 * the future) would set.
 *
 * @param at           when the count changes
 * @param runningCount the count from then on, not negative
 */
public record CountChange(Instant at, int runningCount) {

    public CountChange {
        Objects.requireNonNull(at, "at");
        if (runningCount < 0) {
            throw new IllegalArgumentException("runningCount: bad value '" + runningCount + "': must not be negative");
        }
    }
}
