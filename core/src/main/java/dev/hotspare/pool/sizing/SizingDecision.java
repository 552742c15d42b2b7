package dev.hotspare.pool.sizing;

import java.time.Duration;
import java.util.Optional;

/**
 * What the sizer decided at one decision.
 *
 * @param runningCount     the running count to set (bounded, stepped, cooled down, overridden)
 * @param modelled         what the queueing model asks for, before any bound (may exceed max)
 * @param changed          whether {@code runningCount} differs from the current one
 * @param recommendedSize  the pool size the same model asks for (unclaimed members, hot and hibernated), at least
 *                         {@code runningCount}; a recommendation, applied only where the pool opts in
 * @param demand           the arrival rate planned for
 * @param resumeLeadTime   the resume time planned with
 * @param installLeadTime  the install time planned with
 * @param override         the scheduled override that set the count, if one did
 * @param explanation      one line for people and logs
 * @param basis            which part of the sizer set the count
 */
public record SizingDecision(int runningCount, int modelled, boolean changed, int recommendedSize, DemandForecast demand,
                             Duration resumeLeadTime, Duration installLeadTime, Optional<ScheduledOverride> override,
                             String explanation, Basis basis) {

    /** Which part of the sizer set the count. */
    public enum Basis {
        /** The queueing model on the forecast rate (recent windows, or the learned daily or weekly profile). */
        FORECAST,
        /** The error budget: the model priced against the waits the target still allows (or after misses). */
        BUDGET,
        /** Bursts: arrivals are over-dispersed, and the count the history's own bursts needed is held. */
        BURST,
        /** The lower bound {@code min}. */
        FLOOR,
        /** The upper bound {@code max}. */
        CEILING,
        /** The pace: {@code maxStep} or the cooldown held the count short of what was asked. */
        PACE,
        /** A scheduled override. */
        OVERRIDE,
        /** No lead time is known yet: the count is kept. */
        NO_LEAD_TIME
    }
}
