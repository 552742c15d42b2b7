package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomProtocol.DeadRoomRules;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import java.util.LinkedHashMap;
import java.util.Collections;
import java.util.ArrayList;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where rooms' statuses, last pings and match slots live, per scheduler. Implementations: in-memory (embedded
 * default) and Redis. Every implementation passes {@code RoomStatusStoreContract} from hotspare-testkit.
 *
 * <p>Shaped for a remote store: {@link #update} is one atomic step (one round trip) that applies
 * {@link RoomProtocol}'s rules and returns the counts per status afterwards (what panic scale needs);
 * {@link #counts} is O(1); the dead-room queries are range queries on "last ping" and "occupied since"
 * indexes; {@link #allocate} hands out one match slot atomically, so concurrent callers never get the same slot;
 * {@link #remove} clears every trace of a room. Scheduler and room names are DNS-1123 labels, checked before
 * anything is stored.
 */
public interface RoomStatusStore {

    /** Metric names accepted by {@link #roomsOrderedByMetric}. */
    Set<String> ORDERING_METRICS = Set.of("room", "legacy", "cpu", "mem");

    /**
     * The result of one report.
     *
     * @param outcome  applied, stale (older than the last report: ignored and counted) or rejected (out of terminating)
     * @param previous the room's status before the report, if the room was known
     * @param counts   the scheduler's counts per status after the report
     */
    record RoomUpdate(RoomProtocol.Outcome outcome, Optional<RoomStatus> previous, RoomStatusCounts counts) {
    }

    /**
     * Applies a report atomically under {@link RoomProtocol}: records status, last ping and running matches, moves
     * the room between status indexes, keeps the occupied-since index and the room's allocated slots, removes the
     * room on {@code TERMINATED}.
     *
     * @param status         the reported status
     * @param timestamp      the report's time
     * @param runningMatches the matches the room reports running (see {@link RoomProtocol#requireRunningMatches})
     * @return the outcome, the previous status and the counts after
     * @throws ValidationException when a name is not a DNS-1123 label or the match count is out of range
     */
    RoomUpdate update(String scheduler, String room, RoomStatus status, Instant timestamp, int runningMatches);

    /**
     * {@link #update(String, String, RoomStatus, Instant, int)} for a room that does not report its matches: one
     * running while occupied, none otherwise.
     *
     * @param status    the reported status
     * @param timestamp the report's time
     * @return the outcome, the previous status and the counts after
     * @throws ValidationException when a name is not a DNS-1123 label
     */
    default RoomUpdate update(String scheduler, String room, RoomStatus status, Instant timestamp) {
        return update(scheduler, room, status, timestamp, RoomProtocol.defaultRunningMatches(status));
    }

    /**
     * The scheduler's counts per status and its match totals. O(1).
     */
    RoomStatusCounts counts(String scheduler);

    /**
     * What is known about {@code room}.
     *
     * @return its state, if the store knows it
     */
    Optional<RoomState> room(String scheduler, String room);

    /**
     * Rooms in {@code status}, by name.
     *
     * @return the rooms' names
     */
    List<String> rooms(String scheduler, RoomStatus status);

    /**
     * Non-terminating rooms whose last ping is at or before {@code cutoff}, oldest ping first.
     *
     * @param cutoff    the newest last ping that is still too old
     * @return the rooms' names
     */
    List<String> roomsWithPingAtOrBefore(String scheduler, Instant cutoff);

    /**
     * Occupied rooms that entered occupied at or before {@code cutoff}, longest occupied first.
     *
     * @param cutoff    the latest entry into occupied that is still too long ago
     * @return the rooms' names
     */
    List<String> roomsOccupiedAtOrBefore(String scheduler, Instant cutoff);

    /**
     * Records a room's resource usage ({@code cpu} or {@code mem}, any unit as long as it is consistent),
     * used only to order rooms in {@link #roomsOrderedByMetric}.
     *
     * @param metric    cpu or mem
     * @param value     the usage
     */
    void setRoomMetric(String scheduler, String room, String metric, double value);

    /**
     * Up to {@code limit} room names ordered by metric, ascending (Maestro's "list rooms" route): for
     * {@code room} and {@code legacy}, the ready rooms by name; for {@code cpu} and {@code mem}, the
     * non-terminating rooms with a recorded usage, lowest first (ties by name).
     *
     * @param metric    room, legacy, cpu or mem
     * @param limit     the most names returned, at least 1
     * @throws ValidationException for an unknown metric or a limit below 1
     */
    List<String> roomsOrderedByMetric(String scheduler, String metric, int limit);

    /**
     * Up to {@code limit} rooms with a free match slot, in {@link RoomProtocol#ALLOCATION_ORDER}: partly used rooms
     * (most slots in use first) before empty ones, ties by name. A room has {@code maxMatchesPerRoom} slots; the
     * ones in use are its running matches plus its allocated slots; only ready, allocated and occupied rooms count.
     *
     * @param maxMatchesPerRoom slots per room, at least 1
     * @param limit             the most names returned, at least 1
     * @return the rooms' names
     * @throws ValidationException for a bad name, a slot count or a limit below 1
     */
    List<String> roomsWithFreeSlots(String scheduler, int maxMatchesPerRoom, int limit);

    /**
     * Hands out one match slot, atomically: the first room of {@link #roomsWithFreeSlots} gets one more allocated
     * slot ({@link RoomProtocol#allocate}); a ready room becomes allocated. Concurrent callers never get the same
     * slot.
     *
     * @param maxMatchesPerRoom slots per room, at least 1
     * @param now               when the slot is handed out (its allocation times out from here)
     * @return the room, or empty when no room has a free slot
     * @throws ValidationException for a bad name or a slot count below 1
     */
    Optional<String> allocate(String scheduler, int maxMatchesPerRoom, Instant now);

    /**
     * Takes back, atomically, the slots of every room allocated at or before {@code cutoff}
     * ({@link RoomProtocol#expireAllocation}): an allocated room that never reported its match is ready again.
     *
     * @param cutoff    now minus the allocation timeout
     * @return the rooms whose slots were taken back, by name
     */
    List<String> expireAllocations(String scheduler, Instant cutoff);

    /**
     * Removes every trace of {@code room} (status, ping, occupied-since, slots, metrics).
     *
     * @return the counts after
     */
    RoomStatusCounts remove(String scheduler, String room);

    /**
     * Removes every room of {@code scheduler} and its counters.
     */
    void removeScheduler(String scheduler);

    /**
     * How many reports for this scheduler were ignored because they were older than the room's last one.
     *
     * @return the count
     */
    long staleReports(String scheduler);

    /**
     * A room's keep-alive ({@code PUT .../ping}) with the status as text.
     *
     * @param status    the status as sent
     * @param timestamp the report's time
     * @return the outcome, the previous status and the counts after
     * @throws ValidationException for an unknown status, a bad name, or a transition out of terminating
     */
    default RoomUpdate ping(String scheduler, String room, String status, Instant timestamp) {
        RoomStatus parsed = RoomStatus.parse(status);
        return report(scheduler, room, parsed, timestamp, RoomProtocol.defaultRunningMatches(parsed));
    }

    /**
     * A room's keep-alive with the status as text and the matches it runs.
     *
     * @param status         the status as sent
     * @param timestamp      the report's time
     * @param runningMatches the matches it runs
     * @return the outcome, the previous status and the counts after
     * @throws ValidationException for an unknown status, a bad name or count, or a transition out of terminating
     */
    default RoomUpdate ping(String scheduler, String room, String status, Instant timestamp, int runningMatches) {
        return report(scheduler, room, RoomStatus.parse(status), timestamp, runningMatches);
    }

    /**
     * A room's status change ({@code PUT .../status}: room ready, match started, match ended).
     *
     * @param status    the status as sent
     * @param timestamp the report's time
     * @return the outcome, the previous status and the counts after
     * @throws ValidationException for an unknown status, a bad name, or a transition out of terminating
     */
    default RoomUpdate status(String scheduler, String room, String status, Instant timestamp) {
        return ping(scheduler, room, status, timestamp);
    }

    private RoomUpdate report(String scheduler, String room, RoomStatus parsed, Instant timestamp, int runningMatches) {
        RoomUpdate result = update(scheduler, room, parsed, timestamp, RoomProtocol.requireRunningMatches(runningMatches));
        if (result.outcome() == RoomProtocol.Outcome.REJECTED) {
            throw new ValidationException(Problem.of("status", parsed.wireName(), RoomProtocol.rejection(room, parsed)));
        }
        return result;
    }

    /**
     * Everything a watcher's tick reads of a scheduler's rooms, in one call: each room's status, the counts and the
     * dead rooms. The default makes the individual reads; a networked store answers in one round trip (Redis
     * pipelines the reads), so observing a scheduler costs the same whatever the number of statuses.
     *
     * @param scheduler whose rooms to observe
     * @param now       the time of the check
     * @return the observation
     */
    default RoomObservation observe(String scheduler, DeadRoomRules rules, Instant now) {
        Map<String, RoomStatus> statuses = new java.util.LinkedHashMap<>();
        for (RoomStatus status : RoomObservation.OBSERVED) {
            rooms(scheduler, status).forEach(room -> statuses.put(room, status));
        }
        return new RoomObservation(statuses, counts(scheduler), List.copyOf(deadRooms(scheduler, rules, now)));
    }

    /**
     * Rooms dead at {@code now} under {@code rules}: silent too long, or occupied too long — and every room in
     * {@link RoomStatus#ERROR}, which is removed as a dead room is (Maestro 10).
     *
     * @param now       the time of the check
     * @return the dead rooms, silent ones first
     */
    default Set<String> deadRooms(String scheduler, DeadRoomRules rules, Instant now) {
        Set<String> dead = new LinkedHashSet<>(roomsWithPingAtOrBefore(scheduler, rules.pingCutoff(now)));
        rules.occupiedCutoff(now).ifPresent(cutoff -> dead.addAll(roomsOccupiedAtOrBefore(scheduler, cutoff)));
        dead.addAll(rooms(scheduler, RoomStatus.ERROR));
        return dead;
    }

    /**
     * What a watcher's tick reads of a scheduler's rooms, in one {@link RoomStatusStore#observe} call: every room's
     * status, the counts, and the dead rooms.
     *
     * @param statuses each room in one of the {@linkplain #OBSERVED observed statuses}, with that status
     * @param counts   the scheduler's room counts
     * @param dead     the rooms dead by the rules the call was given, silent ones first
     */
    public record RoomObservation(Map<String, RoomStatus> statuses, RoomStatusCounts counts, List<String> dead) {

        /** The statuses whose rooms a tick lists (terminated rooms are gone; allocated rooms are listed as ready). */
        public static final List<RoomStatus> OBSERVED = List.of(RoomStatus.CREATING, RoomStatus.READY, RoomStatus.OCCUPIED,
                RoomStatus.TERMINATING, RoomStatus.ERROR);

        public RoomObservation {
            statuses = Collections.unmodifiableMap(new LinkedHashMap<>(statuses));
            dead = List.copyOf(new ArrayList<>(dead));
            java.util.Objects.requireNonNull(counts, "counts");
        }
    }
}
