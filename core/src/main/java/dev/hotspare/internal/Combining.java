package dev.hotspare.internal;

import java.util.function.BooleanSupplier;
import java.util.concurrent.locks.LockSupport;

/**
 * Requests that many threads queue for one of them to serve together (a pool controller's claims, a PostgreSQL store's
 * releases): a thread that queued a request takes the lock if it is free and serves whatever is queued, its own request
 * among it; otherwise it parks until its request is answered or the lock is released. A thread never takes the lock
 * only to read an answer already given, and the one holding the lock sends one round trip for every request queued
 * meanwhile (issue 22).
 *
 * <p>Whoever answers a request unparks its thread; whoever releases the lock unparks the thread of the first request
 * still queued, after the release, so a thread that queued and then failed to take the lock is always woken.
 */
public final class Combining {

    private Combining() {
    }

    /** The lock the serving thread holds: taken without waiting, and released with the wake-up of the next thread. */
    public interface Lock {

        /** Takes the lock if it is free; whether it did. */
        boolean tryTake();

        /** Releases the lock and wakes the thread of the first request still queued, if any. */
        void release();
    }

    /**
     * Returns once {@code answered} says the caller's request was answered: while that is not so, takes {@code lock} if
     * it is free and runs {@code serve} (which answers queued requests) under it, or else parks. Like waiting for a lock,
     * an interrupt does not abandon a request that may already be in flight: the thread's interrupt status is set again
     * on return.
     *
     * @param answered whether the caller's request has its answer
     * @param lock     the serving lock
     * @param serve    serves what is queued; runs with {@code lock} held
     * @param blocker  what the thread parks on, for thread dumps
     */
    public static void untilAnswered(BooleanSupplier answered, Lock lock, Runnable serve, Object blocker) {
        boolean interrupted = false;
        while (!answered.getAsBoolean()) {
            if (lock.tryTake()) {
                try {
                    serve.run();
                } finally {
                    lock.release();
                }
            } else {
                // Woken once answered, or by the holder's release if this request is still queued then.
                LockSupport.park(blocker);
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
