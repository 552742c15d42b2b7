package dev.hotspare.fleet.plan;

import java.util.List;
import java.util.Objects;

/**
 * What {@link ReleaseMachine#decide} returns: the state to save (with the expected version), then the commands to
 * run, in order.
 *
 * @param state    the new state
 * @param commands what to do once it is saved
 */
public record ReleaseDecision(ReleaseState state, List<ReleaseCommand> commands) {
    /**
     * Copies the commands.
     *
     * @param state    the new state
     * @param commands what to do once it is saved
     */
    public ReleaseDecision {
        Objects.requireNonNull(state, "state");
        commands = List.copyOf(Objects.requireNonNull(commands, "commands"));
    }

    /**
     * Whether the state changed (a save is needed).
     *
     * @param before the state decided on
     * @return true if {@link #state()} differs from {@code before}
     */
    public boolean changed(ReleaseState before) {
        return !state.equals(before);
    }
}
