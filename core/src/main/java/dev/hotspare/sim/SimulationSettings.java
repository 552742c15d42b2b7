package dev.hotspare.sim;

import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.sizing.SizerSettings;

import java.time.Duration;
import java.util.Objects;

/**
 * How to simulate a pool: its spec and how long the simulated backend takes for each transition.
 *
 * @param spec          the pool
 * @param installTime   how long creating a member takes
 * @param resumeTime    how long waking a hibernated member takes
 * @param hibernateTime how long hibernating takes
 * @param resyncPeriod  the controller's periodic reconcile
 */
public record SimulationSettings(PoolSpec spec, Duration installTime, Duration resumeTime, Duration hibernateTime,
                                 Duration resyncPeriod) {

    public SimulationSettings {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(installTime, "installTime");
        Objects.requireNonNull(resumeTime, "resumeTime");
        Objects.requireNonNull(hibernateTime, "hibernateTime");
        Objects.requireNonNull(resyncPeriod, "resyncPeriod");
    }

    /**
     * The same settings with another, fixed runningCount (for sweeps); auto-sizing, if any, is dropped.
     *
     * @param runningCount the hot spares
     */
    public SimulationSettings withRunningCount(int runningCount) {
        return new SimulationSettings(spec.toBuilder().fixedRunningCount().runningCount(runningCount).build(), installTime,
                resumeTime, hibernateTime, resyncPeriod);
    }

    /**
     * The same settings with the pool sizing its hot spares itself, starting from {@code sizing}'s min.
     *
     * @param sizing the sizer's settings
     */
    public SimulationSettings withAutoSizing(SizerSettings sizing) {
        return new SimulationSettings(spec.toBuilder().runningCount(sizing.min()).autoSizing(sizing).build(), installTime,
                resumeTime, hibernateTime, resyncPeriod);
    }
}
