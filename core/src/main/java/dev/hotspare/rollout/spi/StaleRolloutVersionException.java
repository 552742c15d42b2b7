package dev.hotspare.rollout.spi;

/**
 * A {@link RolloutStore#save} carried a version other than the stored one: someone else saved in between
 * (or the rollout already exists, or no longer does). Reload and decide again.
 */
public final class StaleRolloutVersionException extends RuntimeException {

    /** The rollout's name. */
    private final String rollout;
    /** The version the caller passed. */
    private final long expectedVersion;
    /** The stored version, 0 when the rollout does not exist. */
    private final long actualVersion;

    /**
     * A save that lost the race (or created an existing rollout, or updated a missing one).
     *
     * @param rollout         the rollout's name
     * @param expectedVersion the version the caller passed
     * @param actualVersion   the stored version (0 when the rollout does not exist)
     */
    public StaleRolloutVersionException(String rollout, long expectedVersion, long actualVersion) {
        super("rollout '" + rollout + "': save expected version " + expectedVersion + " but the store has "
                + (actualVersion == 0 ? "no such rollout" : "version " + actualVersion));
        this.rollout = rollout;
        this.expectedVersion = expectedVersion;
        this.actualVersion = actualVersion;
    }

    /**
     * The rollout.
     *
     * @return its name
     */
    public String rollout() {
        return rollout;
    }

    /**
     * The version the caller passed.
     *
     * @return the expected version
     */
    public long expectedVersion() {
        return expectedVersion;
    }

    /**
     * The stored version, 0 if the rollout does not exist.
     *
     * @return the actual version
     */
    public long actualVersion() {
        return actualVersion;
    }
}
