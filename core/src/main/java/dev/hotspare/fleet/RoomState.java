package dev.hotspare.fleet;

import java.time.Instant;
import java.util.Optional;

/**
 * What the room status store knows about one room.
 *
 * @param room           room name
 * @param status         last applied status (allocated while it has allocated slots and reports ready)
 * @param lastPing       timestamp of the newest applied report (ping or status)
 * @param occupiedSince  when the room entered occupied, while it is occupied
 * @param runningMatches matches the room last reported running
 * @param allocatedSlots match slots handed out by the allocation call and not yet reported running
 * @param allocatedAt    when the latest of those slots was handed out, while there are any
 */
public record RoomState(String room, RoomStatus status, Instant lastPing, Optional<Instant> occupiedSince,
                        int runningMatches, int allocatedSlots, Optional<Instant> allocatedAt) {

    /**
     * Checks the required parts and the counts.
     *
     * @throws IllegalArgumentException when room, status or lastPing is missing or a count is negative
     * @param room room name
     * @param status last applied status (allocated while it has allocated slots and reports ready)
     * @param lastPing timestamp of the newest applied report (ping or status)
     * @param occupiedSince when the room entered occupied, while it is occupied
     * @param runningMatches matches the room last reported running
     * @param allocatedSlots match slots handed out by the allocation call and not yet reported running
     * @param allocatedAt when the latest of those slots was handed out, while there are any
     */
    public RoomState {
        if (room == null || status == null || lastPing == null) {
            throw new IllegalArgumentException("room, status and lastPing are required");
        }
        if (runningMatches < 0 || allocatedSlots < 0) {
            throw new IllegalArgumentException("room " + room + ": runningMatches (" + runningMatches
                    + ") and allocatedSlots (" + allocatedSlots + ") must not be negative");
        }
        occupiedSince = occupiedSince == null ? Optional.empty() : occupiedSince;
        allocatedAt = allocatedAt == null ? Optional.empty() : allocatedAt;
    }

    /**
     * A room with nothing allocated, running one match while occupied and none otherwise (the single-match rooms
     * of Maestro 9).
     *
     * @param room          room name
     * @param status        last applied status
     * @param lastPing      newest applied report
     * @param occupiedSince when it entered occupied, while occupied
     */
    public RoomState(String room, RoomStatus status, Instant lastPing, Optional<Instant> occupiedSince) {
        this(room, status, lastPing, occupiedSince, RoomProtocol.defaultRunningMatches(status), 0, Optional.empty());
    }

    /**
     * Match slots used: running plus allocated.
     *
     * @return runningMatches + allocatedSlots
     */
    public int usedSlots() {
        return runningMatches + allocatedSlots;
    }
}
