package dev.hotspare.pool;

/** The power state a member is actually observed in. */
public enum ObservedPower {
    RUNNING,
    HIBERNATING,
    /** Waking up from hibernation; a member stuck here past {@code resumeTimeout} while unclaimed is broken. */
    RESUMING,
    HIBERNATING_IN_PROGRESS,
    /** Not known yet (e.g. still provisioning). */
    UNKNOWN
}
