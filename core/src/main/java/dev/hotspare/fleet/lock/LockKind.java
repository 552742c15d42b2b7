package dev.hotspare.fleet.lock;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The locks of a scheduler, from Maestro's lock protocol. <b>Declaration order is the one global
 * acquisition order</b>: an operation holding a lock may only acquire locks later in this order, so no two
 * operations can wait on each other in a cycle.
 */
public enum LockKind {
    /** Scheduler config lock: held by an update from the first step until its outcome is recorded. */
    CONFIG,
    /** Scale lock: held while an update loads, diffs and saves the new version. */
    SCALE,
    /** Termination lock: scheduler deletion, and the watcher's autoscale step (which makes it a scale-up lock too). */
    TERMINATION,
    /** Downscaling lock: any removal of rooms (scale-down, dead rooms, rolling replace) until they are gone. */
    DOWNSCALE,
    /** Panic lock: one panic scale-up at a time, taken when a ping shows occupancy above the limit. */
    PANIC;

    /**
     * The order as text, for error messages: {@code CONFIG < SCALE < ...}.
     */
    public static String order() {
        return Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(" < "));
    }

    /**
     * The key segment of this kind, e.g. {@code config}.
     */
    public String keySegment() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
