package dev.hotspare.pool.sizing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the sizer learns from: the claim arrivals and served waits of the last days (up to {@link #KEPT}), and since
 * when the pool has been watched (a pool watched for less than a day has no daily profile yet, however many claims
 * it saw).
 *
 * @param since    when watching began, empty when nothing is kept (no learning: the sizer is reactive only)
 * @param arrivals claim arrival instants since then (at most {@link #KEPT} old), any order
 * @param waits    served claims with their waits, for the error budget
 */
public record SizingHistory(Optional<Instant> since, List<Instant> arrivals, List<ClaimWait> waits) {

    /** How much history is kept and used: two weeks, so a weekly profile has two samples of each hour. */
    public static final Duration KEPT = Duration.ofDays(14);

    /** No history: the sizer plans from its recent windows only. */
    public static final SizingHistory NONE = new SizingHistory(Optional.empty(), List.of(), List.of());

    public SizingHistory {
        since = Objects.requireNonNullElse(since, Optional.empty());
        arrivals = List.copyOf(arrivals);
        waits = List.copyOf(waits);
    }

    /**
     * How long the pool has been watched at {@code now}.
     *
     * @param now the decision's time
     * @return the span, zero without history
     */
    public Duration span(Instant now) {
        return since.map(s -> Duration.between(s, now)).filter(d -> !d.isNegative()).orElse(Duration.ZERO);
    }

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
}
