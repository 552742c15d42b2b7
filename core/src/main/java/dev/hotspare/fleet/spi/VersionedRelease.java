package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.plan.ReleaseState;

import java.util.Objects;

/**
 * A scheduler's persisted release and the store's version of it (for the next save's expected version).
 *
 * @param state   the release as the machine last decided it
 * @param version the store's version, from 1, increased by every save
 */
public record VersionedRelease(ReleaseState state, long version) {
    /**
     * Checks the parts.
     *
     * @param state   the release
     * @param version the store's version of it
     */
    public VersionedRelease {
        Objects.requireNonNull(state, "state");
        if (version < 1) {
            throw new IllegalArgumentException("version: bad value '" + version + "': must be at least 1");
        }
    }
}
