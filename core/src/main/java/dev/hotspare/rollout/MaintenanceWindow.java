package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Instant;
import java.util.Optional;

/**
 * When upgrades may start. Nothing is upgraded before {@code start} (prechecks may run earlier); once
 * {@code end} has passed no new op starts, running ops finish, and a rollout with targets left ends
 * {@link Phase#DEADLINE_EXCEEDED}.
 *
 * @param start first instant upgrades may start
 * @param end   instant after which nothing new starts; empty for an open-ended window
 */
public record MaintenanceWindow(Instant start, Optional<Instant> end) {

    /**
     * Validates and normalises the components.
     *
     * @param start first instant upgrades may start
     * @param end   instant after which nothing new starts; empty for an open-ended window
     */
    public MaintenanceWindow {
        end = end == null ? Optional.empty() : end;
    }

    @JsonCreator
    static MaintenanceWindow fromJson(@JsonProperty("start") Instant start, @JsonProperty("end") Instant end) {
        return new MaintenanceWindow(start, Optional.ofNullable(end));
    }

    /**
     * A window from {@code start} to {@code end}.
     *
     * @param start first instant upgrades may start
     * @param end   instant after which nothing new starts
     */
    public static MaintenanceWindow between(Instant start, Instant end) {
        return new MaintenanceWindow(start, Optional.of(end));
    }

    /**
     * A window that opens at {@code start} and never closes.
     *
     * @param start first instant upgrades may start
     */
    public static MaintenanceWindow from(Instant start) {
        return new MaintenanceWindow(start, Optional.empty());
    }
}
