package dev.hotspare.postgres;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Releases that arrive together from many threads of one {@link PostgresClaimStore}, deleted together: the thread that
 * finds no release of this store in flight deletes every release queued by then in one round trip, and the others park
 * until their answer is ready (issue 22: a release was its own round trip and transaction, the claim path's most
 * frequent statement). A release that finds nothing in flight goes alone, as before, at once.
 *
 * <p>A batch runs in one transaction, its rows deleted in (pool, name) order, so two batches (of this process or
 * another) lock the rows they share in the same order and cannot deadlock each other. A batch that fails because the
 * database cannot answer fails every release in it with that error (the outcome of each is unknown, as for one release
 * in flight at that moment); any other failure is retried one release at a time, so each caller hears its own answer.
 */
final class ReleaseBatches {

    /** Most releases deleted in one round trip; the rest of a queue goes in the next. */
    static final int MOST_PER_ROUND_TRIP = 32;

    /** One release on its way: written by the thread that deletes it, read by its own thread once {@link #done}. */
    static final class Release {
        final String pool;
        final String claimName;
        final Thread thread = Thread.currentThread();
        boolean released;
        RuntimeException failure;
        private volatile boolean done;

        Release(String pool, String claimName) {
            this.pool = pool;
            this.claimName = claimName;
        }

        private void answer() {
            done = true;
            if (thread != Thread.currentThread()) {
                LockSupport.unpark(thread);
            }
        }
    }

    /** How releases reach the database. */
    interface Deletes {
        /** Deletes one claim row in its own statement; whether there was one. */
        boolean one(String pool, String claimName);

        /**
         * Deletes each release's row in order, all in one transaction and one round trip; whether each had one, in
         * order. Throws as the store's operations do when the transaction did not commit.
         */
        List<Boolean> together(List<Release> inOrder);

        /** Whether a failure says the database could not answer (retrying each alone would only wait as long again). */
        boolean unavailable(RuntimeException failure);
    }

    private static final Comparator<Release> LOCK_ORDER = Comparator.<Release, String>comparing(r -> r.pool)
            .thenComparing(r -> r.claimName);

    private final Deletes deletes;
    private final ConcurrentLinkedQueue<Release> queue = new ConcurrentLinkedQueue<>();
    /** Held by the thread deleting a batch: at most one round trip of releases per store is in flight. */
    private final ReentrantLock deleting = new ReentrantLock();
    private volatile long roundTrips;

    ReleaseBatches(Deletes deletes) {
        this.deletes = deletes;
    }

    /**
     * Releases one claim, together with whatever other threads release meanwhile; whether its row was there.
     *
     * @throws RuntimeException what the store threw for the round trip that carried this release
     */
    boolean release(String pool, String claimName) {
        Release mine = new Release(pool, claimName);
        queue.add(mine);
        boolean interrupted = false;
        while (!mine.done) {
            if (deleting.tryLock()) {
                try {
                    // Only what is queued now: a holder that kept draining would keep its own caller waiting.
                    if (!mine.done) {
                        deleteQueued();
                    }
                } finally {
                    deleting.unlock();
                    // After the unlock: a release queued while this thread deleted finds the lock free, or is woken here.
                    Release next = queue.peek();
                    if (next != null) {
                        LockSupport.unpark(next.thread);
                    }
                }
            } else {
                LockSupport.park(this);
                // Like waiting for a lock: an interrupt does not abandon a release that may already be in flight.
                interrupted |= Thread.interrupted();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (mine.failure != null) {
            throw mine.failure;
        }
        return mine.released;
    }

    /** Round trips this object has made (for tests and benchmarks). */
    long roundTrips() {
        return roundTrips;
    }

    /** Releases queued and not yet taken by a batch (for tests). */
    int queued() {
        return queue.size();
    }

    /** One release in its own round trip, its answer or its failure kept for its thread. */
    private void deleteAlone(Release r) {
        roundTrips++;
        try {
            r.released = deletes.one(r.pool, r.claimName);
        } catch (RuntimeException e) {
            r.failure = e;
        }
    }

    private void deleteQueued() {
        List<Release> batch = new ArrayList<>();
        for (Release next; batch.size() < MOST_PER_ROUND_TRIP && (next = queue.poll()) != null; ) {
            batch.add(next);
        }
        if (batch.isEmpty()) {
            return;
        }
        try {
            if (batch.size() == 1) {
                deleteAlone(batch.get(0));
                return;
            }
            batch.sort(LOCK_ORDER);
            roundTrips++;
            try {
                List<Boolean> released = deletes.together(batch);
                for (int i = 0; i < batch.size(); i++) {
                    batch.get(i).released = released.get(i);
                }
            } catch (RuntimeException e) {
                if (deletes.unavailable(e)) {
                    batch.forEach(r -> r.failure = e);
                    return;
                }
                // Rolled back as a whole (a deadlock with another writer, say): each alone, each its own answer.
                batch.forEach(this::deleteAlone);
            }
        } catch (Error e) {
            for (Release r : batch) {
                if (!r.done && r.failure == null) {
                    r.failure = new IllegalStateException("releasing claim " + r.claimName + " of pool " + r.pool
                            + " stopped: an unexpected error ended the batch it was in", e);
                }
            }
            throw e;
        } finally {
            batch.forEach(Release::answer);
        }
    }
}
