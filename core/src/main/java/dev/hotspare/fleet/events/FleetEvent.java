package dev.hotspare.fleet.events;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Something that happened to a room or a scheduler, as handed to {@link EventForwarder}s.
 *
 * @param type      what happened
 * @param scheduler the scheduler it happened in
 * @param room      the room, for room events
 * @param at        when it happened
 * @param metadata  free-form details (the forwarder config's metadata, a player event's fields, a scale delta)
 */
public record FleetEvent(Type type, String scheduler, Optional<String> room, Instant at, Map<String, String> metadata) {

    /** Kinds of events. */
    public enum Type {
        ROOM_READY, ROOM_OCCUPIED, ROOM_TERMINATING, ROOM_TERMINATED, SCHEDULER_UPDATED, SCHEDULER_SCALED, PLAYER_EVENT
    }

    public FleetEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(room, "room");
        Objects.requireNonNull(at, "at");
        metadata = Map.copyOf(metadata);
    }

    /** A room event. */
    public static FleetEvent room(Type type, String scheduler, String room, Instant at) {
        return new FleetEvent(type, scheduler, Optional.of(room), at, Map.of());
    }

    /** A scheduler event. */
    public static FleetEvent scheduler(Type type, String scheduler, Instant at, Map<String, String> metadata) {
        return new FleetEvent(type, scheduler, Optional.empty(), at, metadata);
    }
}
