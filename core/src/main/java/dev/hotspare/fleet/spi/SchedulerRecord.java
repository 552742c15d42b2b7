package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.versions.SchedulerVersion;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A scheduler's desired state as stored.
 *
 * @param name               the scheduler name (a DNS-1123 label)
 * @param version            the current version
 * @param config             the current configuration
 * @param state              the scheduler state as the runtime last set it (e.g. {@code creating},
 *                           {@code in-sync}, {@code subdimensioned}, {@code overdimensioned},
 *                           {@code terminating}); free text to the store
 * @param stateLastChangedAt when {@code state} last changed
 * @param lastScaleAt        the last <em>successful</em> scale, if any
 * @param createdAt          when the scheduler was created
 */
public record SchedulerRecord(String name, SchedulerVersion version, ConfigDocument config, String state,
                              Instant stateLastChangedAt, Optional<Instant> lastScaleAt, Instant createdAt) {

    public SchedulerRecord {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(stateLastChangedAt, "stateLastChangedAt");
        Objects.requireNonNull(lastScaleAt, "lastScaleAt");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
