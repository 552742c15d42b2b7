package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.versions.SchedulerVersion;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One version of a scheduler, kept for releases, diff, rollback and "config by version".
 *
 * @param createdAt    when it was saved
 * @param config       the configuration as submitted
 * @param status       the outcome of the operation that introduced it
 * @param rolledBackTo for a version a rollback recorded, the version whose config it restored
 */
public record Release(SchedulerVersion version, Instant createdAt, ConfigDocument config, OperationStatus status,
                      Optional<SchedulerVersion> rolledBackTo) {

    /**
     * Checks the required parts.
     *
     * @throws NullPointerException when one is missing
     * @param createdAt when it was saved
     * @param config the configuration as submitted
     * @param status the outcome of the operation that introduced it
     * @param rolledBackTo for a version a rollback recorded, the version whose config it restored
     */
    public Release {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(status, "status");
        rolledBackTo = Objects.requireNonNullElse(rolledBackTo, Optional.empty());
    }

    /**
     * A release that is not a rollback.
     *
     * @param createdAt when it was saved
     * @param config    the configuration as submitted
     * @param status    the outcome of the operation that introduced it
     */
    public Release(SchedulerVersion version, Instant createdAt, ConfigDocument config, OperationStatus status) {
        this(version, createdAt, config, status, Optional.empty());
    }

    /**
     * The same release with another status.
     *
     * @param newStatus the status
     */
    public Release withStatus(OperationStatus newStatus) {
        return new Release(version, createdAt, config, newStatus, rolledBackTo);
    }

    /** Outcome of the operation that introduced a scheduler version (Maestro's "version status"). */
    public enum OperationStatus {
        /** The version is saved and its rollout (if any) is still running. */
        IN_PROGRESS,
        /** Every room is on the version (or no replacement was needed). */
        DEPLOYED,
        /** The rollout was cancelled and rolled back. */
        CANCELED,
        /** A room failed to come up; rolled back. */
        ERROR,
        /** New rooms were not ready within the timeout; rolled back. */
        TIMEDOUT,
        /**
         * The service running the operation stopped before it finished (a crash, or a shutdown whose grace period ran
         * out): the next holder of the scheduler's CONFIG lock finds the release still {@link #IN_PROGRESS} and marks it
         * so. Its rooms may be on either version; the next update or the watcher brings them to the current one.
         */
        INTERRUPTED
    }
}
