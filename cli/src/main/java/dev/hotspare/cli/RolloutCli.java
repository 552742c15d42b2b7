package dev.hotspare.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code hotspare rollout …}: preview and replay staged rollouts. */
@Command(name = "rollout", mixinStandardHelpOptions = true,
        description = "Staged rollouts: preview a plan, replay events through the state machine.",
        subcommands = {RolloutPlanCommand.class, RolloutReplayCommand.class})
public final class RolloutCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
