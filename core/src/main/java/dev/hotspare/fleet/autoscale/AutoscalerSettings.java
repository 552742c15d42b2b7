package dev.hotspare.fleet.autoscale;

import java.time.Duration;

/**
 * Worker-level autoscaling settings (Maestro's watcher configuration).
 *
 * @param period           time between ticks; a trigger's window is {@code max(1, floor(time / period))} points
 * @param maxScaleUpAmount the most rooms one scale-up adds (min/max corrections excepted)
 */
public record AutoscalerSettings(Duration period, int maxScaleUpAmount) {

    /** Maestro's defaults: a tick every 10 s, at most 300 rooms per scale-up. */
    public static final AutoscalerSettings DEFAULT = new AutoscalerSettings(Duration.ofSeconds(10), 300);

    public AutoscalerSettings {
        if (period == null || period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period must be positive, was " + period);
        }
        if (maxScaleUpAmount < 1) {
            throw new IllegalArgumentException("maxScaleUpAmount must be at least 1, was " + maxScaleUpAmount);
        }
    }

    /**
     * Points a trigger looking at {@code timeSeconds} of history reads.
     */
    public int windowSize(long timeSeconds) {
        long size = Duration.ofSeconds(timeSeconds).toMillis() / period.toMillis();
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, size));
    }
}
