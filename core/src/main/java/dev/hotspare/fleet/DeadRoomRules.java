package dev.hotspare.fleet;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * When a room is dead and must be removed: its last ping is older than {@code pingTimeout}, or it has been
 * occupied for longer than {@code occupiedTimeout} (when the scheduler sets one). Terminating rooms are
 * already on their way out and are never dead.
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

    /** The default ping timeout and the config's occupied timeout. */
    public static DeadRoomRules of(SchedulerConfig config) {
        return new DeadRoomRules(DEFAULT_PING_TIMEOUT, config.occupiedTimeoutDuration());
    }

    /** Rooms whose last ping is before this instant are dead. */
    public Instant pingCutoff(Instant now) {
        return now.minus(pingTimeout);
    }

    /** Rooms occupied since before this instant are dead, when an occupied timeout is set. */
    public Optional<Instant> occupiedCutoff(Instant now) {
        return occupiedTimeout.map(now::minus);
    }

    /** Whether {@code room} is dead at {@code now}. */
    public boolean isDead(RoomState room, Instant now) {
        if (room.status() == RoomStatus.TERMINATING) {
            return false;
        }
        if (room.lastPing().isBefore(pingCutoff(now))) {
            return true;
        }
        Optional<Instant> cutoff = occupiedCutoff(now);
        return room.status() == RoomStatus.OCCUPIED && cutoff.isPresent()
                && room.occupiedSince().map(since -> since.isBefore(cutoff.get())).orElse(false);
    }
}
