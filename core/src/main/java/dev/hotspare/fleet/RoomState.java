package dev.hotspare.fleet;

import java.time.Instant;
import java.util.Optional;

/**
 * What the room status store knows about one room.
 *
 * @param room          room name
 * @param status        last applied status
 * @param lastPing      timestamp of the newest applied report (ping or status)
 * @param occupiedSince when the room entered occupied, while it is occupied
 */
public record RoomState(String room, RoomStatus status, Instant lastPing, Optional<Instant> occupiedSince) {

    public RoomState {
        if (room == null || status == null || lastPing == null) {
            throw new IllegalArgumentException("room, status and lastPing are required");
        }
        occupiedSince = occupiedSince == null ? Optional.empty() : occupiedSince;
    }
}
