package dev.hotspare.fleet;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import java.time.Duration;

import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * The rules for applying a room's report (ping or status) to what is known about it, and for handing out its match
 * slots. Every {@code RoomStatusStore} applies exactly these rules, atomically; they live here so that they are
 * stated once and can be tested without a store.
 *
 * <ul>
 *   <li>A report older than the room's last applied report is {@link Outcome#STALE}: ignored and counted.
 *       A report with the same timestamp is applied (the later arrival wins).</li>
 *   <li>A terminating room may only be reported terminating (a keep-alive) or terminated; anything else is
 *       {@link Outcome#REJECTED}.</li>
 *   <li>Everything else is {@link Outcome#APPLIED}; terminated removes the room.</li>
 * </ul>
 *
 * <p><b>Matches and slots.</b> Every report says how many matches the room runs ({@code runningMatches}; a room
 * that does not say runs one while occupied and none otherwise). The allocation call hands out one free slot at a
 * time ({@link #allocate}): a room's free slots are {@code maxMatchesPerRoom − running − allocated}. Slots handed
 * out become running matches as the room reports more matches running; a ready room with allocated slots is
 * {@code allocated}, and its ready keep-alives keep it so, until it reports occupied, its allocation times out
 * ({@link #expireAllocation}), or it terminates. Terminating rooms run nothing that counts.
 */
public final class RoomProtocol {

    /** The most matches one room may report running. */
    public static final int MAX_RUNNING_MATCHES = 100_000;

    /**
     * The allocation order: the room with the most slots in use first (partly used rooms before empty ones, so
     * empty rooms stay free to be scaled down), then by name.
     */
    public static final Comparator<RoomState> ALLOCATION_ORDER =
            Comparator.comparingInt(RoomState::usedSlots).reversed().thenComparing(RoomState::room);

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

    /**
     * The matches a room runs when its report does not say: one while occupied, none otherwise.
     *
     * @param status the reported status
     * @return 1 for occupied, else 0
     */
    public static int defaultRunningMatches(RoomStatus status) {
        return status == RoomStatus.OCCUPIED ? 1 : 0;
    }

    /**
     * Checks a reported match count.
     *
     * @param runningMatches the count a room reported
     * @throws ValidationException naming {@code runningMatches} when it is negative or above {@value #MAX_RUNNING_MATCHES}
     */
    public static int requireRunningMatches(int runningMatches) {
        if (runningMatches < 0 || runningMatches > MAX_RUNNING_MATCHES) {
            throw new ValidationException(Problem.of("runningMatches", runningMatches,
                    "must be a whole number of matches between 0 and " + MAX_RUNNING_MATCHES));
        }
        return runningMatches;
    }

    /**
     * The outcome of reporting {@code reported} at {@code timestamp} for a room currently in {@code current}.
     *
     * @param current   what is known of the room, if anything
     * @param reported  the reported status
     * @param timestamp the report's time
     * @return applied, stale or rejected
     */
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
     * {@link #apply(Optional, String, RoomStatus, Instant, int)} with the default match count for the status.
     *
     * @param current   what is known of the room
     * @param room      its name
     * @param reported  the reported status
     * @param timestamp the report's time
     * @return the state after the report; empty when the room is gone
     */
    public static Optional<RoomState> apply(Optional<RoomState> current, String room, RoomStatus reported, Instant timestamp) {
        return apply(current, room, reported, timestamp, defaultRunningMatches(reported));
    }

    /**
     * The state after applying {@code reported}, assuming {@link #outcome} said APPLIED; empty when the room is gone
     * (terminated). {@code occupiedSince} is set when the room enters occupied and kept while it stays. Allocated
     * slots turn into running matches as the count rises; a ready report of a room with allocated slots keeps it
     * allocated; creating, terminating and terminated drop its allocations.
     *
     * @param current        what is known of the room
     * @param room           its name
     * @param reported       the reported status
     * @param timestamp      the report's time
     * @param runningMatches the matches the room reports running
     */
    public static Optional<RoomState> apply(Optional<RoomState> current, String room, RoomStatus reported, Instant timestamp,
                                            int runningMatches) {
        if (reported == RoomStatus.TERMINATED) {
            return Optional.empty();
        }
        int before = current.map(RoomState::runningMatches).orElse(0);
        int allocated = current.map(RoomState::allocatedSlots).orElse(0);
        allocated = Math.max(0, allocated - Math.max(0, runningMatches - before));
        if (reported == RoomStatus.CREATING || reported == RoomStatus.TERMINATING || reported == RoomStatus.ERROR) {
            allocated = 0;
        } else if (reported == RoomStatus.ALLOCATED) {
            allocated = Math.max(1, allocated);
        }
        RoomStatus status = reported == RoomStatus.READY && allocated > 0 ? RoomStatus.ALLOCATED : reported;
        Optional<Instant> allocatedAt = Optional.empty();
        if (allocated > 0) {
            allocatedAt = current.filter(s -> s.allocatedSlots() > 0).flatMap(RoomState::allocatedAt)
                    .or(() -> Optional.of(timestamp));
        }
        Optional<Instant> occupiedSince = Optional.empty();
        if (status == RoomStatus.OCCUPIED) {
            occupiedSince = current.filter(s -> s.status() == RoomStatus.OCCUPIED)
                    .flatMap(RoomState::occupiedSince).or(() -> Optional.of(timestamp));
        }
        return Optional.of(new RoomState(room, status, timestamp, occupiedSince, runningMatches, allocated, allocatedAt));
    }

    /**
     * Whether one more match slot of {@code state} may be handed out: the room hosts matches (ready, allocated,
     * occupied) and uses fewer than {@code maxMatchesPerRoom} slots.
     *
     * @param state             the room
     * @param maxMatchesPerRoom the slots of a room
     * @return whether it has a free slot
     */
    public static boolean hasFreeSlot(RoomState state, int maxMatchesPerRoom) {
        return state.status().hostsMatches() && state.usedSlots() < maxMatchesPerRoom;
    }

    /**
     * The room after one of its free slots is handed out at {@code now}: one more allocated slot, allocated since
     * {@code now}, and a ready room becomes allocated. The last ping does not move (the room did not report).
     *
     * @param state a room with a free slot ({@link #hasFreeSlot})
     * @param now   when the slot is handed out
     * @return the new state
     */
    public static RoomState allocate(RoomState state, Instant now) {
        RoomStatus status = state.status() == RoomStatus.READY ? RoomStatus.ALLOCATED : state.status();
        return new RoomState(state.room(), status, state.lastPing(), state.occupiedSince(), state.runningMatches(),
                state.allocatedSlots() + 1, Optional.of(now));
    }

    /**
     * Whether the slots handed out to {@code state} have timed out: it has some, allocated at or before {@code cutoff}.
     *
     * @param state  the room
     * @param cutoff now minus the allocation timeout
     * @return whether its allocation expired
     */
    public static boolean allocationExpired(RoomState state, Instant cutoff) {
        return state.allocatedSlots() > 0 && state.allocatedAt().map(at -> !at.isAfter(cutoff)).orElse(false);
    }

    /**
     * The room after its allocated slots timed out: none left, and an allocated room is ready again.
     *
     * @param state the room
     * @return the new state
     */
    public static RoomState expireAllocation(RoomState state) {
        RoomStatus status = state.status() == RoomStatus.ALLOCATED ? RoomStatus.READY : state.status();
        return new RoomState(state.room(), status, state.lastPing(), state.occupiedSince(), state.runningMatches(), 0,
                Optional.empty());
    }

    /**
     * The matches {@code state} adds to its scheduler's running-match total: none while terminating or in error.
     *
     * @param state a room
     * @return its counted running matches
     */
    public static int countedMatches(RoomState state) {
        return state.status() == RoomStatus.TERMINATING || state.status() == RoomStatus.ERROR ? 0 : state.runningMatches();
    }

    /**
     * {@code counts} with {@code before} taken out and {@code after} put in (either may be absent).
     *
     * @param counts the counts before the change
     * @param before the room's state before, if it existed
     * @param after  the room's state after, if it still exists
     * @return the counts after the change
     */
    public static RoomStatusCounts recount(RoomStatusCounts counts, Optional<RoomState> before, Optional<RoomState> after) {
        RoomStatusCounts out = counts;
        if (before.isPresent()) {
            out = out.plus(before.get().status(), -1).plusMatches(-countedMatches(before.get()), -before.get().allocatedSlots());
        }
        if (after.isPresent()) {
            out = out.plus(after.get().status(), 1).plusMatches(countedMatches(after.get()), after.get().allocatedSlots());
        }
        return out;
    }

    /**
     * Why a report was rejected, for error messages.
     *
     * @param reported the status it reported
     * @return the message
     */
    public static String rejection(String room, RoomStatus reported) {
        return "room " + room + " is terminating; a terminating room cannot become " + reported.wireName();
    }

    /**
     * When a room is dead and must be removed: its last ping is {@code pingTimeout} old or older, or it has been
     * occupied for {@code occupiedTimeout} or longer (when the scheduler sets one) — both bounds inclusive, as in
     * Maestro. Terminating rooms are already on their way out and are never dead.
     *
     * @param pingTimeout     how long a room may stay silent (default 30 s)
     * @param occupiedTimeout how long a match may last, if bounded
     */
    public record DeadRoomRules(Duration pingTimeout, Optional<Duration> occupiedTimeout) {

        /** Default silence allowed before a room is dead. */
        public static final Duration DEFAULT_PING_TIMEOUT = Duration.ofSeconds(30);

        public DeadRoomRules {
            if (pingTimeout == null || pingTimeout.isNegative() || pingTimeout.isZero()) {
                throw new IllegalArgumentException("pingTimeout must be positive, was " + pingTimeout);
            }
            occupiedTimeout = occupiedTimeout == null ? Optional.empty() : occupiedTimeout;
        }

        /**
         * The default ping timeout and the config's occupied timeout.
         */
        public static DeadRoomRules of(SchedulerConfig config) {
            return new DeadRoomRules(DEFAULT_PING_TIMEOUT, config.occupiedTimeoutDuration());
        }

        /**
         * Rooms whose last ping is at or before this instant are dead.
         *
         * @param now the current instant
         */
        public Instant pingCutoff(Instant now) {
            return now.minus(pingTimeout);
        }

        /**
         * Rooms occupied since this instant or earlier are dead, when an occupied timeout is set.
         *
         * @param now the current instant
         */
        public Optional<Instant> occupiedCutoff(Instant now) {
            return occupiedTimeout.map(now::minus);
        }

        /**
         * Whether {@code room} is dead at {@code now}.
         *
         * @param now the current instant
         */
        public boolean isDead(RoomState room, Instant now) {
            if (room.status() == RoomStatus.TERMINATING) {
                return false;
            }
            if (room.status() == RoomStatus.ERROR) {
                return true; // Maestro 10 removes rooms in error as it removes expired ones.
            }
            if (!room.lastPing().isAfter(pingCutoff(now))) {
                return true;
            }
            Optional<Instant> cutoff = occupiedCutoff(now);
            return room.status() == RoomStatus.OCCUPIED && cutoff.isPresent()
                    && room.occupiedSince().map(since -> !since.isAfter(cutoff.get())).orElse(false);
        }
    }
}
