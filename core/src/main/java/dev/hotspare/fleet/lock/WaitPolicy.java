package dev.hotspare.fleet.lock;

import java.time.Duration;
import java.util.Objects;

/** How long an acquisition waits for a busy lock. */
public sealed interface WaitPolicy {

    /**
     * Try once; if the lock is busy, give up at once (what a watcher tick does: skip, do not queue).
     */
    static WaitPolicy tryOnce() {
        return TryOnce.INSTANCE;
    }

    /**
     * Retry with exponential backoff from 50 ms, capped at 1 s, until {@code maxWait} has passed.
     */
    static WaitPolicy waitUpTo(Duration maxWait) {
        return new RetryUntil(maxWait, Duration.ofMillis(50), Duration.ofSeconds(1));
    }

    /** Give up after the first attempt. */
    enum TryOnce implements WaitPolicy {
        INSTANCE
    }

    /**
     * Retry until {@code maxWait} after the first attempt, sleeping {@code initialBackoff}, doubling up to
     * {@code maxBackoff}, between attempts (on the manager's {@link dev.hotspare.time.TaskScheduler}, so
     * no thread is blocked and virtual time works).
     */
    record RetryUntil(Duration maxWait, Duration initialBackoff, Duration maxBackoff) implements WaitPolicy {
        public RetryUntil {
            Objects.requireNonNull(maxWait, "maxWait");
            Objects.requireNonNull(initialBackoff, "initialBackoff");
            Objects.requireNonNull(maxBackoff, "maxBackoff");
            if (maxWait.isNegative()) {
                throw new IllegalArgumentException("maxWait: bad value '" + maxWait + "': must not be negative");
            }
            if (initialBackoff.isNegative() || initialBackoff.isZero()) {
                throw new IllegalArgumentException("initialBackoff: bad value '" + initialBackoff + "': must be positive");
            }
            if (maxBackoff.compareTo(initialBackoff) < 0) {
                throw new IllegalArgumentException("maxBackoff: bad value '" + maxBackoff + "': must be at least initialBackoff " + initialBackoff);
            }
        }

        /**
         * The pause after failed attempt number {@code attempt} (1-based).
         */
        public Duration backoff(int attempt) {
            Duration pause = initialBackoff;
            for (int i = 1; i < attempt && pause.compareTo(maxBackoff) < 0; i++) {
                pause = pause.multipliedBy(2);
            }
            return pause.compareTo(maxBackoff) > 0 ? maxBackoff : pause;
        }
    }
}
