package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.DeadRoomRules;
import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where rooms' statuses and last pings live, per scheduler. Implementations: in-memory (embedded default)
 * and Redis. Every implementation passes {@code RoomStatusStoreContract} from hotspare-testkit.
 *
 * <p>Shaped for a remote store: {@link #update} is one atomic step (one round trip) that applies
 * {@link RoomProtocol}'s rules and returns the counts per status afterwards (what panic scale needs);
 * {@link #counts} is O(1); the dead-room queries are range queries on "last ping" and "occupied since"
 * indexes; {@link #remove} clears every trace of a room. Scheduler and room names are DNS-1123 labels,
 * checked before anything is stored.
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
     * Applies a report atomically under {@link RoomProtocol}: records status and last ping, moves the room
     * between status indexes, keeps the occupied-since index, removes the room on {@code TERMINATED}.
     *
     * @throws ValidationException when a name is not a DNS-1123 label
     */
    RoomUpdate update(String scheduler, String room, RoomStatus status, Instant timestamp);

    /** The scheduler's counts per status. O(1). */
    RoomStatusCounts counts(String scheduler);

    /** What is known about {@code room}. */
    Optional<RoomState> room(String scheduler, String room);

    /** Rooms in {@code status}, by name. */
    List<String> rooms(String scheduler, RoomStatus status);

    /** Non-terminating rooms whose last ping is strictly before {@code cutoff}, oldest ping first. */
    List<String> roomsWithPingBefore(String scheduler, Instant cutoff);

    /** Occupied rooms that entered occupied strictly before {@code cutoff}, longest occupied first. */
    List<String> roomsOccupiedBefore(String scheduler, Instant cutoff);

    /**
     * Records a room's resource usage ({@code cpu} or {@code mem}, any unit as long as it is consistent),
     * used only to order rooms in {@link #roomsOrderedByMetric}.
     */
    void setRoomMetric(String scheduler, String room, String metric, double value);

    /**
     * Up to {@code limit} room names ordered by metric, ascending (Maestro's "list rooms" route): for
     * {@code room} and {@code legacy}, the ready rooms by name; for {@code cpu} and {@code mem}, the
     * non-terminating rooms with a recorded usage, lowest first (ties by name).
     *
     * @throws ValidationException for an unknown metric or a limit below 1
     */
    List<String> roomsOrderedByMetric(String scheduler, String metric, int limit);

    /** Removes every trace of {@code room} (status, ping, occupied-since, metrics); returns the counts after. */
    RoomStatusCounts remove(String scheduler, String room);

    /** Removes every room of {@code scheduler} and its counters. */
    void removeScheduler(String scheduler);

    /** How many reports for this scheduler were ignored because they were older than the room's last one. */
    long staleReports(String scheduler);

    /**
     * A room's keep-alive ({@code PUT .../ping}) with the status as text.
     *
     * @throws ValidationException for an unknown status, a bad name, or a transition out of terminating
     */
    default RoomUpdate ping(String scheduler, String room, String status, Instant timestamp) {
        return report(scheduler, room, status, timestamp);
    }

    /**
     * A room's status change ({@code PUT .../status}: room ready, match started, match ended).
     *
     * @throws ValidationException for an unknown status, a bad name, or a transition out of terminating
     */
    default RoomUpdate status(String scheduler, String room, String status, Instant timestamp) {
        return report(scheduler, room, status, timestamp);
    }

    private RoomUpdate report(String scheduler, String room, String status, Instant timestamp) {
        RoomStatus parsed = RoomStatus.parse(status);
        RoomUpdate result = update(scheduler, room, parsed, timestamp);
        if (result.outcome() == RoomProtocol.Outcome.REJECTED) {
            throw new ValidationException(Problem.of("status", parsed.wireName(), RoomProtocol.rejection(room, parsed)));
        }
        return result;
    }

    /** Rooms dead at {@code now} under {@code rules}: silent too long, or occupied too long. */
    default Set<String> deadRooms(String scheduler, DeadRoomRules rules, Instant now) {
        Set<String> dead = new LinkedHashSet<>(roomsWithPingBefore(scheduler, rules.pingCutoff(now)));
        rules.occupiedCutoff(now).ifPresent(cutoff -> dead.addAll(roomsOccupiedBefore(scheduler, cutoff)));
        return dead;
    }
}
