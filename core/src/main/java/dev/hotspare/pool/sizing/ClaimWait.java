package dev.hotspare.pool.sizing;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One served claim as the sizer's error budget sees it: when it arrived and how long it waited for its member.
 *
 * @param arrivedAt when the claim was made
 * @param waited    how long until it was served, not negative
 */
public record ClaimWait(Instant arrivedAt, Duration waited) {

    public ClaimWait {
        Objects.requireNonNull(arrivedAt, "arrivedAt");
        Objects.requireNonNull(waited, "waited");
        if (waited.isNegative()) {
            throw new IllegalArgumentException("waited: bad value '" + waited + "': must not be negative");
        }
    }
}
