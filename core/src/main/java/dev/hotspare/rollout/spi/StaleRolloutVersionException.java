package dev.hotspare.rollout.spi;

/**
 * A {@link RolloutStore#save} carried a version other than the stored one: someone else saved in between
 * (or the rollout already exists, or no longer does). Reload and decide again.
 */
public final class StaleRolloutVersionException extends RuntimeException {

    private final String rollout;
    private final long expectedVersion;
    private final long actualVersion;

    /**
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

    public String rollout() {
        return rollout;
    }

    public long expectedVersion() {
        return expectedVersion;
    }

    /** The stored version, 0 if the rollout does not exist. */
    public long actualVersion() {
        return actualVersion;
    }
}
