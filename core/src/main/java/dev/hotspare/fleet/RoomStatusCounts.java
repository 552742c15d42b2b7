package dev.hotspare.fleet;

/**
 * How many rooms of one scheduler are in each status: the autoscaler's input. Terminating rooms are
 * listed for operators but count nowhere: not in {@link #active()}, not in utilization.
 *
 * @param creating    rooms starting
 * @param ready       rooms available for a match
 * @param occupied    rooms running a match
 * @param terminating rooms shutting down
 */
public record RoomStatusCounts(int creating, int ready, int occupied, int terminating) {

    /** No rooms at all. */
    public static final RoomStatusCounts ZERO = new RoomStatusCounts(0, 0, 0, 0);

    public RoomStatusCounts {
        if (creating < 0 || ready < 0 || occupied < 0 || terminating < 0) {
            throw new IllegalArgumentException("room counts must not be negative: creating=" + creating
                    + " ready=" + ready + " occupied=" + occupied + " terminating=" + terminating);
        }
    }

    /** Counts with no terminating rooms. */
    public static RoomStatusCounts of(int creating, int ready, int occupied) {
        return new RoomStatusCounts(creating, ready, occupied, 0);
    }

    /** A = creating + ready + occupied: the rooms that make up capacity. */
    public int active() {
        return creating + ready + occupied;
    }

    /** The count for {@code status}; 0 for terminated. */
    public int count(RoomStatus status) {
        return switch (status) {
            case CREATING -> creating;
            case READY -> ready;
            case OCCUPIED -> occupied;
            case TERMINATING -> terminating;
            case TERMINATED -> 0;
        };
    }

    /** These counts with {@code delta} added to {@code status} (terminated is ignored). */
    public RoomStatusCounts plus(RoomStatus status, int delta) {
        return switch (status) {
            case CREATING -> new RoomStatusCounts(creating + delta, ready, occupied, terminating);
            case READY -> new RoomStatusCounts(creating, ready + delta, occupied, terminating);
            case OCCUPIED -> new RoomStatusCounts(creating, ready, occupied + delta, terminating);
            case TERMINATING -> new RoomStatusCounts(creating, ready, occupied, terminating + delta);
            case TERMINATED -> this;
        };
    }
}
