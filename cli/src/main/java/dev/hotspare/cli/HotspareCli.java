package dev.hotspare.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code hotspare} command-line program. Each subcommand is its own class; register new ones in
 * {@link #commandLine()}.
 */
@Command(name = "hotspare", mixinStandardHelpOptions = true, version = "hotspare 0.1.0-SNAPSHOT",
        description = "Pools of expensive, slow-to-start members: simulate, plan, validate, roll out.",
        subcommands = {CommandLine.HelpCommand.class, SimulateCommand.class, PlanCommand.class, ValidateCommand.class,
                AutoscaleCommand.class, DiffCommand.class, RolloutCli.class})
public final class HotspareCli implements Runnable {

    /** Exit status for bad input (missing file, unknown field, bad value). */
    public static final int EXIT_BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI with {@code args} and returns the exit status, without exiting. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The configured command line: every subcommand, and bad usage reported as exit status 2 without a stack trace. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new HotspareCli());
        cli.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("error: " + ex.getMessage());
            ex.getCommandLine().getErr().println("see: hotspare " + ex.getCommandLine().getCommandName() + " --help");
            return EXIT_BAD_INPUT;
        });
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
