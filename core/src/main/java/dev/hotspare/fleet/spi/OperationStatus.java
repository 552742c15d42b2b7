package dev.hotspare.fleet.spi;

/** Outcome of the operation that introduced a scheduler version (Maestro's "version status"). */
public enum OperationStatus {
    /** The version is saved and its rollout (if any) is still running. */
    IN_PROGRESS,
    /** Every room is on the version (or no replacement was needed). */
    DEPLOYED,
    /** The rollout was cancelled and rolled back. */
    CANCELED,
    /** A room failed to come up; rolled back. */
    ERROR,
    /** New rooms were not ready within the timeout; rolled back. */
    TIMEDOUT,
    /**
     * The service running the operation stopped before it finished (a crash, or a shutdown whose grace period ran
     * out): the next holder of the scheduler's CONFIG lock finds the release still {@link #IN_PROGRESS} and marks it
     * so. Its rooms may be on either version; the next update or the watcher brings them to the current one.
     */
    INTERRUPTED
}
