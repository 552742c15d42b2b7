package dev.hotspare.pool.sizing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the sizer observes of a pool at one decision.
 *
 * @param arrivals            recent claim arrival instants (at least the long window's)
 * @param resumeTimes         resume times measured on this pool's members (resume asked → running), newest last
 * @param installTimes        install times measured on this pool's members (created → installed), newest last
 * @param currentRunningCount the running count in force now
 * @param lastChangeAt        when the sizer last changed it, if ever
 * @param now                 the decision's time
 * @param history             the days of arrivals and waits the sizer learns from ({@link SizingHistory#NONE}: none)
 */
public record SizingInput(List<Instant> arrivals, List<Duration> resumeTimes, List<Duration> installTimes,
                          int currentRunningCount, Optional<Instant> lastChangeAt, Instant now, SizingHistory history) {

    /**
     * An input without history: the sizer plans from the recent windows only.
     *
     * @param arrivals            recent claim arrival instants
     * @param resumeTimes         measured resume times
     * @param installTimes        measured install times
     * @param currentRunningCount the running count in force now
     * @param lastChangeAt        when the sizer last changed it
     * @param now                 the decision's time
     */
    public SizingInput(List<Instant> arrivals, List<Duration> resumeTimes, List<Duration> installTimes,
                       int currentRunningCount, Optional<Instant> lastChangeAt, Instant now) {
        this(arrivals, resumeTimes, installTimes, currentRunningCount, lastChangeAt, now, SizingHistory.NONE);
    }

    public SizingInput {
        arrivals = List.copyOf(arrivals);
        resumeTimes = List.copyOf(resumeTimes);
        installTimes = List.copyOf(installTimes);
        lastChangeAt = Objects.requireNonNullElse(lastChangeAt, Optional.empty());
        Objects.requireNonNull(now, "now");
        history = Objects.requireNonNullElse(history, SizingHistory.NONE);
        if (currentRunningCount < 0) {
            throw new IllegalArgumentException("currentRunningCount: bad value '" + currentRunningCount + "': must not be negative");
        }
    }
}
