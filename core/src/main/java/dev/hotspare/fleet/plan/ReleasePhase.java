package dev.hotspare.fleet.plan;

/**
 * Where a fleet release stands. {@link #REPLACING} and {@link #ROLLING_BACK} are in progress; the other four are
 * terminal and never change. A release that failed ends in the phase of its failure ({@link #ERROR},
 * {@link #CANCELED}, {@link #TIMED_OUT}) once its rollback has run.
 */
public enum ReleasePhase {
    /** Rooms of an older major are replaced by rooms of the release's version, chunk by chunk. */
    REPLACING,
    /** The release failed; the previous config, saved again as a new major, replaces the rooms. */
    ROLLING_BACK,
    /** Every room runs the release's version. */
    DEPLOYED,
    /** A new room failed, the lease guarding the release was lost, or the store refused a write. */
    ERROR,
    /** Cancelled on request (a client, or a shutdown's first step). */
    CANCELED,
    /** The replace did not finish before its deadline. */
    TIMED_OUT;

    /**
     * Whether the phase is final.
     *
     * @return true for DEPLOYED, ERROR, CANCELED and TIMED_OUT
     */
    public boolean terminal() {
        return this != REPLACING && this != ROLLING_BACK;
    }

    /**
     * Whether the phase is a failure.
     *
     * @return true for ERROR, CANCELED and TIMED_OUT
     */
    public boolean failure() {
        return this == ERROR || this == CANCELED || this == TIMED_OUT;
    }
}
