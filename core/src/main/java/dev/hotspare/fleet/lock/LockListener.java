package dev.hotspare.fleet.lock;

import dev.hotspare.internal.Listeners;
import java.util.Locale;

import java.time.Duration;

/**
 * Observes a {@link LockManager}: how long acquisitions waited and how they ended, and leases lost.
 * {@code dev.hotspare.kpi.KpiListener} and the {@code hotspare-micrometer} module implement it.
 *
 * <p>Called on lock and renewal threads: implementations must be quick and should not throw; the manager guards
 * whatever it is given (an exception is logged, WARN once then DEBUG, and ignored). Every method has a no-op
 * default.
 */
public interface LockListener {

    /** A listener that ignores everything. */
    LockListener NONE = new LockListener() {
    };

    /**
     * An acquisition of {@code lock} ended after {@code wait} (from the request to the grant or the give-up;
     * cancelled acquisitions and store failures are not reported).
     */
    default void lockWaited(LockId lock, LockOutcome outcome, Duration wait) {
    }

    /**
     * A lease this process held on {@code lock} was lost (a renewal was refused or ran past the TTL).
     */
    default void leaseLost(LockId lock) {
    }

    /**
     * {@code listener} with every call guarded: an exception is logged and ignored. Idempotent.
     */
    static LockListener guarded(LockListener listener) {
        return Listeners.guarded(LockListener.class, listener, NONE);
    }

    /** How waiting for a lock ended, as reported by {@link LockListener#lockWaited}. */
    public enum LockOutcome {
        /** The lock was granted. */
        ACQUIRED,
        /**
         * The wait policy gave up while the lock stayed busy. For a try-once acquisition (a watcher tick, a
         * config update) that is the first busy answer, with a wait of zero.
         */
        TIMED_OUT;

        /**
         * Lower-case name with dashes, as used in metric tags ({@code timed-out}).
         */
        public String tag() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
