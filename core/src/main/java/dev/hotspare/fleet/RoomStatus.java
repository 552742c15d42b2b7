package dev.hotspare.fleet;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The status of a game room: creating → ready ⇄ occupied → terminating → terminated (gone).
 * A room may be reported terminating from any status; nothing leaves terminating except removal.
 */
public enum RoomStatus {
    /** The room is starting and has not reported ready yet. */
    CREATING,
    /** The room is available for a match. */
    READY,
    /** A match is running in the room. */
    OCCUPIED,
    /** The room received a termination signal and is shutting down; it counts nowhere. */
    TERMINATING,
    /** The room is gone; reporting it removes every trace of the room. */
    TERMINATED;

    /** The lower-case name used on the wire ({@code "ready"}). */
    @JsonValue
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether rooms in this status make up the fleet's capacity (creating, ready, occupied). */
    public boolean isActive() {
        return this == CREATING || this == READY || this == OCCUPIED;
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
