package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.Phase;

import java.util.Objects;

/**
 * {@link RolloutStore#delete} refused: the rollout is in progress (not in a terminal phase), so deleting it would
 * abandon its in-flight ops and free its targets behind its back. Send {@code Abort} first.
 */
public final class RolloutInProgressException extends RuntimeException {

    /** The rollout. */
    private final String rollout;
    /** Its phase when the delete was refused. */
    private final Phase phase;

    /**
     * A refused delete.
     *
     * @param rollout the rollout's name
     * @param phase   its phase
     */
    public RolloutInProgressException(String rollout, Phase phase) {
        super("rollout '" + rollout + "' is in progress (" + phase + "); abort it before deleting it");
        this.rollout = Objects.requireNonNull(rollout, "rollout");
        this.phase = Objects.requireNonNull(phase, "phase");
    }

    /**
     * The rollout.
     *
     * @return its name
     */
    public String rollout() {
        return rollout;
    }

    /**
     * Its phase when the delete was refused.
     *
     * @return a non-terminal phase
     */
    public Phase phase() {
        return phase;
    }
}
