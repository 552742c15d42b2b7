package dev.hotspare.fleet;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

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
