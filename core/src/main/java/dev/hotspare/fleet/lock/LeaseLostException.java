package dev.hotspare.fleet.lock;

/**
 * The guarded operation's lease is gone — renewal failed, the lease expired, or an operator force-released
 * it — so another holder may already act. The operation must stop writing; stores that accept fenced writes
 * reject its writes anyway.
 */
public final class LeaseLostException extends IllegalStateException {

    private final LockId lock;

    LeaseLostException(LockId lock, String why) {
        super("lease on " + lock + " lost: " + why);
        this.lock = lock;
    }

    /**
     * The lock whose lease was lost.
     */
    public LockId lock() {
        return lock;
    }
}
