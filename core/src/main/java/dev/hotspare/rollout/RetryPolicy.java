package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Duration;

/**
 * How a failed device op is retried: up to {@code attempts} attempts in total, {@code delay} apart, and never
 * when the retry would start outside the maintenance window. Nodes and the services op are not retried.
 *
 * @param attempts total attempts per device, at least 1 (1 = no retry); default 1
 * @param delay    wait between a failure and the next attempt; default 1 minute
 */
public record RetryPolicy(int attempts, Duration delay) {

    /** Default {@link #delay()}. */
    public static final Duration DEFAULT_DELAY = Duration.ofMinutes(1);

    /**
     * No retries.
     *
     * @return one attempt in total
     */
    public static RetryPolicy none() {
        return new RetryPolicy(1, DEFAULT_DELAY);
    }

    @JsonCreator
    static RetryPolicy fromJson(@JsonProperty("attempts") Integer attempts, @JsonProperty("delay") Duration delay) {
        return new RetryPolicy(attempts == null ? 1 : attempts, delay == null ? DEFAULT_DELAY : delay);
    }
}
