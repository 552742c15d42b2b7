package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.versions.SchedulerVersion;

import java.time.Instant;
import java.util.Objects;

/**
 * One version of a scheduler, kept for releases, diff, rollback and "config by version".
 *
 * @param version   the version
 * @param createdAt when it was saved
 * @param config    the configuration as submitted
 * @param status    the outcome of the operation that introduced it
 */
public record Release(SchedulerVersion version, Instant createdAt, ConfigDocument config, OperationStatus status) {

    public Release {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(status, "status");
    }

    /** The same release with another status. */
    public Release withStatus(OperationStatus newStatus) {
        return new Release(version, createdAt, config, newStatus);
    }
}
