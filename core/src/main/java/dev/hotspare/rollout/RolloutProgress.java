package dev.hotspare.rollout;

import java.util.Objects;

/**
 * Where one rollout is: its phase and how many of its targets (nodes, the services op, devices) are done.
 *
 * @param phase the rollout's phase
 * @param done  targets nothing more will happen to (succeeded, failed, skipped, cancelled, removed)
 * @param total every target of the rollout
 */
public record RolloutProgress(Phase phase, int done, int total) {

    /**
     * Validates and normalises the components.
     *
     * @param phase the rollout's phase
     * @param done  targets nothing more will happen to (succeeded, failed, skipped, cancelled, removed)
     * @param total every target of the rollout
     */
    public RolloutProgress {
        Objects.requireNonNull(phase, "phase");
        if (done < 0 || total < done) {
            throw new IllegalArgumentException("done: bad value '" + done + "': needs 0 <= done <= total (" + total + ")");
        }
    }

    /**
     * The progress of {@code state}.
     *
     * @param state a rollout's state
     * @return its phase and targets done / total
     */
    public static RolloutProgress of(RolloutState state) {
        int done = 0;
        for (TargetRecord target : state.targets()) {
            if (target.status().terminal()) {
                done++;
            }
        }
        return new RolloutProgress(state.phase(), done, state.targets().size());
    }
}
