package dev.hotspare.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A {@link Clock} that only moves when told to. Thread-safe. Moving it backwards is refused, because every
 * hotspare decision assumes time does not run backwards within one process.
 */
public final class VirtualClock extends Clock {

    private volatile Instant now;

    public VirtualClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /**
     * A clock at {@code 2026-01-01T00:00:00Z}, a fixed and readable origin for tests and simulations.
     */
    public static VirtualClock atEpochOf2026() {
        return new VirtualClock(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /**
     * Moves the clock to {@code instant}.
     */
    public synchronized void setTo(Instant instant) {
        if (instant.isBefore(now)) {
            throw new IllegalArgumentException("instant: " + instant + " is before the clock's " + now + "; virtual time never runs backwards");
        }
        now = instant;
    }

    /**
     * Moves the clock forward by {@code duration}.
     */
    public synchronized void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration: " + duration + " is negative; virtual time never runs backwards");
        }
        now = now.plus(duration);
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        if (zone.equals(ZoneOffset.UTC)) {
            return this;
        }
        throw new UnsupportedOperationException("zone: " + zone + "; a VirtualClock is always UTC");
    }
}
