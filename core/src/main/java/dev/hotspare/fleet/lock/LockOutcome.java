package dev.hotspare.fleet.lock;

import java.util.Locale;

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
