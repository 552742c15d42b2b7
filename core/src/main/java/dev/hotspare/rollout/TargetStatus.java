package dev.hotspare.rollout;

/** Progress of one target in a rollout. */
public enum TargetStatus {
    /** Not upgraded yet (possibly prechecked). */
    PENDING,
    /** An op (precheck or upgrade) is in flight. */
    RUNNING,
    /** The last upgrade attempt failed; the next one is scheduled. */
    RETRY_WAIT,
    /** Upgraded to the target version. */
    SUCCEEDED,
    /** Failed for good (or its precheck failed). */
    FAILED,
    /** Left alone: already at the version, outside every selector, control plane off, or joined too late. */
    SKIPPED,
    /** Its op was cancelled by an abort or the end of the rollout. */
    CANCELLED,
    /** Removed from the inventory before it finished. */
    REMOVED;

    /**
     * Whether nothing more will happen to the target.
     *
     * @return whether this is neither PENDING, RUNNING nor RETRY_WAIT
     */
    public boolean terminal() {
        return this != PENDING && this != RUNNING && this != RETRY_WAIT;
    }

    /**
     * Whether the target occupies an op slot (in flight, or between attempts).
     *
     * @return whether this is RUNNING or RETRY_WAIT
     */
    public boolean active() {
        return this == RUNNING || this == RETRY_WAIT;
    }
}
