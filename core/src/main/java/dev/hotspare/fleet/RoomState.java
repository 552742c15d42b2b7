package dev.hotspare.fleet;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import java.util.stream.Collectors;
import java.util.Locale;
import java.util.Arrays;
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

    /**
     * The status of a game room: creating → ready ⇄ (allocated →) occupied → terminating → terminated (gone).
     * A room may be reported terminating from any status; nothing leaves terminating except removal. A ready room
     * handed out by the allocation call is {@code allocated} until it reports occupied (or its allocation times out
     * and it is ready again). A room may report {@code error} (Maestro 10): it is counted in its own count, counts
     * nowhere else (not capacity, no matches, no slots), is never allocated and is removed as dead rooms are.
     */
    public enum RoomStatus {
        /** The room is starting and has not reported ready yet. */
        CREATING,
        /** The room is available for a match. */
        READY,
        /**
         * The room was handed out for a match (the allocation call) and has not reported it running yet; a ready
         * keep-alive keeps it allocated until its allocation times out.
         */
        ALLOCATED,
        /** A match is running in the room. */
        OCCUPIED,
        /** The room received a termination signal and is shutting down; it counts nowhere. */
        TERMINATING,
        /** The room is gone; reporting it removes every trace of the room. */
        TERMINATED,
        /**
         * The room reported an error (Maestro 10's {@code error}): counted, never allocated, not capacity, and removed
         * by the watcher as a dead room is.
         */
        ERROR;

        /**
         * The lower-case name used on the wire ({@code "ready"}).
         */
        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * Whether rooms in this status make up the fleet's capacity (creating, ready, allocated, occupied).
         */
        public boolean isActive() {
            return this == CREATING || this == READY || this == ALLOCATED || this == OCCUPIED;
        }

        /**
         * Whether a room in this status can host matches now, so its free slots may be allocated (ready, allocated, occupied).
         *
         * @return whether a room in this status can host matches now, so its free slots may be allocated (ready,
         *         allocated, occupied)
         */
        public boolean hostsMatches() {
            return this == READY || this == ALLOCATED || this == OCCUPIED;
        }

        /**
         * Parses a reported status, case-insensitively.
         *
         * @throws ValidationException naming the value and the known statuses when it is unknown
         */
        @JsonCreator
        public static RoomStatus parse(String text) {
            if (text != null) {
                for (RoomStatus s : values()) {
                    if (s.wireName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                        return s;
                    }
                }
            }
            throw new ValidationException(Problem.of("status", text == null ? Problem.MISSING : text,
                    "unknown room status; known statuses: "
                            + Arrays.stream(values()).map(RoomStatus::wireName).collect(Collectors.joining(", "))));
        }

        @Override
        public String toString() {
            return wireName();
        }
    }
}
