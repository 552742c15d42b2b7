package dev.hotspare.fleet.lock;

import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.fleet.lock.spi.LockKeys;
import dev.hotspare.validation.Names;
import java.util.stream.Collectors;
import java.util.Arrays;

import java.util.Comparator;
import java.util.Objects;

/**
 * One lock: a kind of lock of one scheduler. Ordered by kind (the global order of {@link LockKind}), then by
 * scheduler name, which is the order in which {@link LockScope} requires locks to be taken.
 *
 * @param scheduler the scheduler name, a DNS-1123 label
 * @param kind      which of the scheduler's locks
 */
public record LockId(String scheduler, LockKind kind) implements Comparable<LockId> {

    /** Prefix of every scheduler lock key in a {@link dev.hotspare.fleet.lock.spi.LockStore}. */
    public static final String KEY_PREFIX = "scheduler";

    private static final Comparator<LockId> ORDER =
            Comparator.comparing(LockId::kind).thenComparing(LockId::scheduler);

    public LockId {
        Names.requireDns1123Label("scheduler", scheduler);
        Objects.requireNonNull(kind, "kind");
    }

    /**
     * Shorthand for {@code new LockId(scheduler, kind)}.
     *
     * @param scheduler the scheduler name, a DNS-1123 label
     * @param kind which of the scheduler's locks
     */
    public static LockId of(String scheduler, LockKind kind) {
        return new LockId(scheduler, kind);
    }

    /**
     * The store key, {@code scheduler.<name>.<kind>}.
     */
    public String key() {
        return LockKeys.of(KEY_PREFIX, scheduler, kind.keySegment());
    }

    /**
     * The store prefix under which every lock of {@code scheduler} lives.
     *
     * @param scheduler the scheduler name, a DNS-1123 label
     */
    public static String prefixOf(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        return KEY_PREFIX + "." + scheduler + ".";
    }

    @Override
    public int compareTo(LockId other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return kind + "(" + scheduler + ")";
    }

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
}
