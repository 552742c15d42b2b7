package dev.hotspare.fleet.spi;

import dev.hotspare.fleet.plan.ScaleInputs;

import java.util.Objects;

/**
 * A scheduler's persisted scale inputs and the store's version of them (for the next save's expected version).
 *
 * @param inputs  the inputs as last saved ({@link ScaleInputs#EMPTY} when none were)
 * @param version the store's version, 0 when nothing was saved, increased by every save
 */
public record VersionedScaleInputs(ScaleInputs inputs, long version) {

    /** Nothing saved yet. */
    public static final VersionedScaleInputs NONE = new VersionedScaleInputs(ScaleInputs.EMPTY, 0);

    /** Checks the parts: a version of 0 or more. */
    public VersionedScaleInputs {
        Objects.requireNonNull(inputs, "inputs");
        if (version < 0) {
            throw new IllegalArgumentException("version: bad value '" + version + "': must not be negative");
        }
    }
}
