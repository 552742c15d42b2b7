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
 */
public record SizingDecision(int runningCount, int modelled, boolean changed, int recommendedSize, DemandForecast demand,
                             Duration resumeLeadTime, Duration installLeadTime, Optional<ScheduledOverride> override,
                             String explanation) {
}
