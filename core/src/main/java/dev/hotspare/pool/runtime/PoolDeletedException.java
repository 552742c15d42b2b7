package dev.hotspare.pool.runtime;

/** A claim was made on a pool that is being deleted; nothing was written. */
public final class PoolDeletedException extends IllegalStateException {

    /** The pool being deleted. */
    private final String pool;
    /** The claim refused. */
    private final String claimName;

    /**
     * A refusal of claim {@code claimName} by pool {@code pool}.
     *
     * @param pool      the pool being deleted
     * @param claimName the claim refused
     */
    public PoolDeletedException(String pool, String claimName) {
        super("claimName: bad value '" + claimName + "': pool '" + pool + "' is being deleted and takes no new claims");
        this.pool = pool;
        this.claimName = claimName;
    }

    /**
     * The pool being deleted.
     *
     * @return its name
     */
    public String pool() {
        return pool;
    }

    /**
     * The claim that was refused.
     *
     * @return its name
     */
    public String claimName() {
        return claimName;
    }
}
