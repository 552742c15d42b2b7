package dev.hotspare.rollout;

/** Suspend state, orthogonal to the {@link Phase}. */
public enum Suspension {
    /** Running normally. */
    NONE,
    /** Suspend asked: nothing new starts; in-flight ops (and retries of started devices) finish. */
    REQUESTED,
    /** Reached the boundary: nothing is active. Resume continues from here. */
    SUSPENDED
}
