package dev.hotspare.fleet;

import java.time.Instant;
import java.util.Optional;

/**
 * The rules for applying a room's report (ping or status) to what is known about it. Every
 * {@code RoomStatusStore} applies exactly these rules, atomically; they live here so that they are stated
 * once and can be tested without a store.
 *
 * <ul>
 *   <li>A report older than the room's last applied report is {@link Outcome#STALE}: ignored and counted.
 *       A report with the same timestamp is applied (the later arrival wins).</li>
 *   <li>A terminating room may only be reported terminating (a keep-alive) or terminated; anything else is
 *       {@link Outcome#REJECTED}.</li>
 *   <li>Everything else is {@link Outcome#APPLIED}; terminated removes the room.</li>
 * </ul>
 */
public final class RoomProtocol {

    /** What happened to a report. */
    public enum Outcome {
        /** The status and last ping were recorded (or, for terminated, the room was removed). */
        APPLIED,
        /** Older than the last applied report for the room: ignored, counted in the store's stale counter. */
        STALE,
        /** Not a legal transition (out of terminating): nothing changed. */
        REJECTED
    }

    private RoomProtocol() {
    }

    /** The outcome of reporting {@code reported} at {@code timestamp} for a room currently in {@code current}. */
    public static Outcome outcome(Optional<RoomState> current, RoomStatus reported, Instant timestamp) {
        if (current.isEmpty()) {
            return Outcome.APPLIED;
        }
        RoomState state = current.get();
        if (timestamp.isBefore(state.lastPing())) {
            return Outcome.STALE;
        }
        if (state.status() == RoomStatus.TERMINATING
                && reported != RoomStatus.TERMINATING && reported != RoomStatus.TERMINATED) {
            return Outcome.REJECTED;
        }
        return Outcome.APPLIED;
    }

    /**
     * The state after applying {@code reported}, assuming {@link #outcome} said APPLIED; empty when the room
     * is gone (terminated). {@code occupiedSince} is set when the room enters occupied and kept while it stays.
     */
    public static Optional<RoomState> apply(Optional<RoomState> current, String room, RoomStatus reported, Instant timestamp) {
        if (reported == RoomStatus.TERMINATED) {
            return Optional.empty();
        }
        Optional<Instant> occupiedSince = Optional.empty();
        if (reported == RoomStatus.OCCUPIED) {
            occupiedSince = current.filter(s -> s.status() == RoomStatus.OCCUPIED)
                    .flatMap(RoomState::occupiedSince).or(() -> Optional.of(timestamp));
        }
        return Optional.of(new RoomState(room, reported, timestamp, occupiedSince));
    }

    /** Why a report was rejected, for error messages. */
    public static String rejection(String room, RoomStatus reported) {
        return "room " + room + " is terminating; a terminating room cannot become " + reported.wireName();
    }
}
