package dev.hotspare.fleet.lock;

/**
 * A fenced write carried a token older than the newest one the store already accepted for the same lock
 * key: its writer's lease has lapsed and someone else holds (or held) the lock since. The write was not
 * applied. The writer must stop; retrying cannot succeed.
 */
public final class StaleFenceException extends IllegalStateException {

    private final Fence rejected;
    private final long newestAccepted;

    public StaleFenceException(Fence rejected, long newestAccepted) {
        super("write fenced by " + rejected.lockKey() + " token " + rejected.token()
                + " rejected: token " + newestAccepted + " of that lock was already accepted");
        this.rejected = rejected;
        this.newestAccepted = newestAccepted;
    }

    /**
     * The fence of the rejected write.
     */
    public Fence rejected() {
        return rejected;
    }

    /**
     * The newest token the store had accepted for that lock key.
     */
    public long newestAccepted() {
        return newestAccepted;
    }
}
