package dev.hotspare.pool.runtime;

import java.time.Instant;
import java.util.Objects;

/**
 * A claim's deadline passed before it was served: it was removed from the queue with outcome
 * {@link dev.hotspare.pool.ClaimOutcome#EXPIRED}. Its {@link ClaimHandle#member()} future completes exceptionally
 * with this exception.
 */
public final class ClaimExpiredException extends IllegalStateException {

    /** The pool. */
    private final String pool;
    /** The claim that expired. */
    private final String claimName;
    /** Its deadline. */
    private final Instant deadline;

    /**
     * Claim {@code claimName} of {@code pool} expired at {@code deadline}.
     *
     * @param claimName the claim
     * @param deadline  its deadline
     */
    public ClaimExpiredException(String pool, String claimName, Instant deadline) {
        super("claim '" + claimName + "' of pool '" + pool + "' expired: its deadline " + deadline
                + " passed before a member was free");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.claimName = Objects.requireNonNull(claimName, "claimName");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    /**
     * The pool.
     *
     * @return its name
     */
    public String pool() {
        return pool;
    }

    /**
     * The claim that expired.
     *
     * @return its name
     */
    public String claimName() {
        return claimName;
    }

    /**
     * Its deadline.
     *
     * @return the instant it had to be served by
     */
    public Instant deadline() {
        return deadline;
    }
}
