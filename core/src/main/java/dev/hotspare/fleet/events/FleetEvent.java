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
        /** A room reported ready. */
        ROOM_READY,
        /** A room reported occupied (a match started). */
        ROOM_OCCUPIED,
        /** A room reported terminating. */
        ROOM_TERMINATING,
        /** A room is gone. */
        ROOM_TERMINATED,
        /** A scheduler got a new version. */
        SCHEDULER_UPDATED,
        /** A scheduler's rooms were added or removed. */
        SCHEDULER_SCALED,
        /** A player event a room sent ({@code POST .../playerevent}): {@code event} and the room's metadata. */
        PLAYER_EVENT,
        /** A match slot of a room was handed out by the allocation call, or the room reported allocated. */
        ROOM_ALLOCATED
    }

    /**
     * Checks the parts.
     *
     * @throws NullPointerException when one is missing
     * @param type what happened
     * @param at when
     * @param metadata details
     */
    public FleetEvent {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(room, "room");
        Objects.requireNonNull(at, "at");
        metadata = Map.copyOf(metadata);
    }

    /**
     * A room event.
     *
     * @param type      what happened
     * @param at        when
     */
    public static FleetEvent room(Type type, String scheduler, String room, Instant at) {
        return new FleetEvent(type, scheduler, Optional.of(room), at, Map.of());
    }

    /**
     * A room event with details.
     *
     * @param type      what happened
     * @param at        when
     * @param metadata  details
     */
    public static FleetEvent room(Type type, String scheduler, String room, Instant at, Map<String, String> metadata) {
        return new FleetEvent(type, scheduler, Optional.of(room), at, metadata);
    }

    /**
     * A scheduler event.
     *
     * @param type      what happened
     * @param at        when
     * @param metadata  details
     */
    public static FleetEvent scheduler(Type type, String scheduler, Instant at, Map<String, String> metadata) {
        return new FleetEvent(type, scheduler, Optional.empty(), at, metadata);
    }
}
