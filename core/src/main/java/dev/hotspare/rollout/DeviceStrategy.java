package dev.hotspare.rollout;

/** How devices inside one label group are paced. */
public enum DeviceStrategy {
    /** A worker pool: whenever fewer than {@code maxParallel} devices are active, the next one starts. */
    LINEAR,
    /** Batches of 1, 2, 4, … capped at {@code maxParallel}; a batch starts when the previous one finished; the ramp restarts in each group. */
    EXPONENTIAL
}
