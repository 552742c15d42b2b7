package dev.hotspare.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One claim of a simulated trace: when it arrives and how long its holder keeps the member.
 *
 * @param at   arrival time
 * @param hold how long the member is held once assigned
 */
public record ClaimArrival(Instant at, Duration hold) {

    public ClaimArrival {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(hold, "hold");
        if (hold.isNegative()) {
            throw new IllegalArgumentException("hold: bad value '" + hold + "': must not be negative");
        }
    }
}
