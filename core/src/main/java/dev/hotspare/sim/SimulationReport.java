package dev.hotspare.sim;

import java.time.Duration;

/**
 * What one simulated run measured, from the first claim of the trace to its end.
 *
 * @param runningCount           the spec's runningCount
 * @param claims                 claims in the trace
 * @param served                 claims that got a member before the end
 * @param waitP50                median claim wait (unserved claims count with their wait so far)
 * @param waitP95                95th percentile wait
 * @param waitP99                99th percentile wait
 * @param waitMax                longest wait
 * @param servedHot              claims given a member that was already running when they arrived
 * @param servedWarm             claims that waited for an installed member to resume
 * @param servedCold             claims that waited for a member to be installed
 * @param runningMemberHours     member-hours spent provisioning, running, resuming or hibernating-in-progress
 * @param hibernatedMemberHours  member-hours spent hibernated
 */
public record SimulationReport(int runningCount, int claims, int served, Duration waitP50, Duration waitP95,
                               Duration waitP99, Duration waitMax, int servedHot, int servedWarm, int servedCold,
                               double runningMemberHours, double hibernatedMemberHours) {

    /** Share of claims served hot, 0..1. */
    public double hotShare() {
        return claims == 0 ? 0 : (double) servedHot / claims;
    }
}
