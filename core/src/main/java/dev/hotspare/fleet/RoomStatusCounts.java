package dev.hotspare.fleet;

import dev.hotspare.fleet.RoomState.RoomStatus;

/**
 * How many rooms of one scheduler are in each status, and how many matches they run: the autoscaler's input.
 * Terminating rooms are listed for operators but count nowhere: not in {@link #active()}, not in utilization,
 * not in the match totals.
 *
 * @param creating       rooms starting
 * @param ready          rooms available for a match
 * @param occupied       rooms running a match
 * @param terminating    rooms shutting down
 * @param allocated      rooms handed out by the allocation call that have not reported their match running yet
 * @param runningMatches matches the non-terminating rooms last reported running (a room that reports no count runs
 *                       one match while occupied, none otherwise)
 * @param allocatedSlots match slots handed out by the allocation call and not yet reported running
 * @param error          rooms in error (Maestro 10): counted here only — not in {@link #active()}, not in the match
 *                       totals — and removed by the watcher as dead rooms are
 */
public record RoomStatusCounts(int creating, int ready, int occupied, int terminating, int allocated,
                               int runningMatches, int allocatedSlots, int error) {

    /** No rooms at all. */
    public static final RoomStatusCounts ZERO = new RoomStatusCounts(0, 0, 0, 0, 0, 0, 0, 0);

    /**
     * Checks that no count is negative.
     *
     * @throws IllegalArgumentException naming every count when one is negative
     * @param creating rooms starting
     * @param ready rooms available
     * @param occupied rooms running a match
     * @param terminating rooms shutting down
     * @param allocated rooms handed out by the allocation call that have not reported their match running yet
     * @param runningMatches matches the non-terminating rooms last reported running (a room that reports no count
     *         runs one match while occupied, none otherwise)
     * @param allocatedSlots match slots handed out by the allocation call and not yet reported running
     * @param error rooms in error
     */
    public RoomStatusCounts {
        if (creating < 0 || ready < 0 || occupied < 0 || terminating < 0 || allocated < 0 || runningMatches < 0
                || allocatedSlots < 0 || error < 0) {
            throw new IllegalArgumentException("room counts must not be negative: creating=" + creating
                    + " ready=" + ready + " occupied=" + occupied + " terminating=" + terminating + " allocated="
                    + allocated + " runningMatches=" + runningMatches + " allocatedSlots=" + allocatedSlots
                    + " error=" + error);
        }
    }

    /**
     * Counts with no room in error.
     *
     * @param creating       rooms starting
     * @param ready          rooms available
     * @param occupied       rooms running a match
     * @param terminating    rooms shutting down
     * @param allocated      rooms handed out by the allocation call that have not reported their match running yet
     * @param runningMatches matches the non-terminating rooms last reported running
     * @param allocatedSlots match slots handed out by the allocation call and not yet reported running
     */
    public RoomStatusCounts(int creating, int ready, int occupied, int terminating, int allocated, int runningMatches,
                            int allocatedSlots) {
        this(creating, ready, occupied, terminating, allocated, runningMatches, allocatedSlots, 0);
    }

    /**
     * Counts of single-match rooms with nothing allocated: every occupied room runs one match.
     *
     * @param creating    rooms starting
     * @param ready       rooms available
     * @param occupied    rooms running a match
     * @param terminating rooms shutting down
     */
    public RoomStatusCounts(int creating, int ready, int occupied, int terminating) {
        this(creating, ready, occupied, terminating, 0, occupied, 0);
    }

    /**
     * Counts with no terminating rooms, of single-match rooms with nothing allocated.
     *
     * @param creating rooms starting
     * @param ready    rooms available
     * @param occupied rooms running a match
     */
    public static RoomStatusCounts of(int creating, int ready, int occupied) {
        return new RoomStatusCounts(creating, ready, occupied, 0);
    }

    /**
     * A = creating + ready + allocated + occupied: the rooms that make up capacity.
     *
     * @return the number of active rooms
     */
    public int active() {
        return creating + ready + allocated + occupied;
    }

    /**
     * Rooms taken by matches: occupied plus allocated (an allocated room is promised to a match).
     */
    public int taken() {
        return occupied + allocated;
    }

    /**
     * Match slots in use: matches running plus slots handed out and not yet running.
     *
     * @return runningMatches + allocatedSlots
     */
    public int usedSlots() {
        return runningMatches + allocatedSlots;
    }

    /**
     * The count for {@code status}; 0 for terminated.
     *
     * @return how many rooms are in it
     */
    public int count(RoomStatus status) {
        return switch (status) {
            case CREATING -> creating;
            case READY -> ready;
            case ALLOCATED -> allocated;
            case OCCUPIED -> occupied;
            case TERMINATING -> terminating;
            case ERROR -> error;
            case TERMINATED -> 0;
        };
    }

    /**
     * These counts with {@code delta} added to {@code status} (terminated is ignored); match totals unchanged.
     *
     * @param status the status whose count changes
     * @param delta  rooms added (negative: removed)
     * @return the new counts
     */
    public RoomStatusCounts plus(RoomStatus status, int delta) {
        return switch (status) {
            case CREATING -> new RoomStatusCounts(creating + delta, ready, occupied, terminating, allocated, runningMatches, allocatedSlots, error);
            case READY -> new RoomStatusCounts(creating, ready + delta, occupied, terminating, allocated, runningMatches, allocatedSlots, error);
            case ALLOCATED -> new RoomStatusCounts(creating, ready, occupied, terminating, allocated + delta, runningMatches, allocatedSlots, error);
            case OCCUPIED -> new RoomStatusCounts(creating, ready, occupied + delta, terminating, allocated, runningMatches, allocatedSlots, error);
            case TERMINATING -> new RoomStatusCounts(creating, ready, occupied, terminating + delta, allocated, runningMatches, allocatedSlots, error);
            case ERROR -> new RoomStatusCounts(creating, ready, occupied, terminating, allocated, runningMatches, allocatedSlots, error + delta);
            case TERMINATED -> this;
        };
    }

    /**
     * These counts with the match totals moved by {@code matches} running matches and {@code slots} allocated slots.
     *
     * @param matches change in running matches
     * @param slots   change in allocated slots
     * @return the new counts
     */
    public RoomStatusCounts plusMatches(int matches, int slots) {
        return new RoomStatusCounts(creating, ready, occupied, terminating, allocated, runningMatches + matches,
                allocatedSlots + slots, error);
    }
}
