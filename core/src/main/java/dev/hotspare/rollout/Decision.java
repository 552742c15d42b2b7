package dev.hotspare.rollout;

import java.util.List;

/**
 * The result of {@link RolloutMachine#decide}: the state to save, then the commands to execute.
 *
 * @param state    the new state
 * @param commands what to do, in order, after {@code state} is saved
 */
public record Decision(RolloutState state, List<RolloutCommand> commands) {

    /**
     * Validates and normalises the components.
     *
     * @param state    the new state
     * @param commands what to do, in order, after {@code state} is saved
     */
    public Decision {
        commands = List.copyOf(commands);
    }

    /**
     * The commands of type {@code type}.
     *
     * @param type the command type
     * @param <C>  the command type
     * @return those commands, in order
     */
    public <C extends RolloutCommand> List<C> commandsOf(Class<C> type) {
        return commands.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
