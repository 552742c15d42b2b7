package dev.hotspare.pool;

import java.util.Locale;

/** A change in the number of members or rooms, as reported by the {@code scaled} call of the pool and fleet listeners. */
public enum ScaleOperation {
    /** A pool controller created members (its plan's creates: refill, replacement, template change). */
    CREATE,
    /**
     * Members or rooms deleted for a reason other than a scale-down decision: a pool controller's plan (released
     * claims, excess, failures, outdated templates) or a fleet watcher's removal of dead rooms.
     */
    DELETE,
    /** A fleet scheduler created rooms: autoscaler, min rooms of a new scheduler, or the scale-up operation. */
    SCALE_UP,
    /** A fleet scheduler removed rooms: autoscaler or the scale-down operation. */
    SCALE_DOWN;

    /** Lower-case name with dashes, as used in metric tags ({@code scale-up}). */
    public String tag() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
