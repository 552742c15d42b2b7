package dev.hotspare.fleet.lock;

/**
 * A programming error: a lock was requested out of the global order while the same scope held (or was
 * acquiring) a lock that comes at or after it. Thrown at once, before anything is sent to the store, because
 * out-of-order acquisition is what makes lock protocols deadlock.
 */
public final class LockOrderException extends IllegalStateException {

    LockOrderException(LockId requested, LockId held) {
        super("cannot acquire " + requested + " while holding " + held + ": locks are taken in the order "
                + LockKind.order() + " (then by scheduler name), and never twice");
    }
}
