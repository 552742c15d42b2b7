package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.RolloutState;

import java.util.Objects;

/**
 * A rollout state as stored, with the version to pass to the next {@link RolloutStore#save}.
 *
 * @param version the store's version of it, from 1, increased by every save
 */
public record VersionedRollout(RolloutState state, long version) {
    /**
     * Validates and normalises the components.
     *
     * @param version the store's version of it, from 1, increased by every save
     */
    public VersionedRollout {
        Objects.requireNonNull(state, "state");
        if (version < 1) {
            throw new IllegalArgumentException("version: " + version + " must be at least 1");
        }
    }
}
