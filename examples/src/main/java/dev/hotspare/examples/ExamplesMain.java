package dev.hotspare.examples;

import dev.hotspare.examples.poolservice.PoolServiceCommand;
import dev.hotspare.examples.rollout.RolloutDemo;
import dev.hotspare.rollout.RolloutState.Phase;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/**
 * The main class of {@code examples/target/hotspare-examples.jar}: {@code java -jar hotspare-examples.jar <example>}
 * runs one of the examples — the cluster-pool service, the rollout demo or the README's quick start.
 */
@Command(name = "hotspare-examples", mixinStandardHelpOptions = true, version = "hotspare-examples 0.1.0-SNAPSHOT",
        description = "hotspare's example programs: a Hive-style cluster pool you can watch, a staged rollout, the quick start.",
        subcommands = {CommandLine.HelpCommand.class, PoolServiceCommand.class, ExamplesMain.RolloutDemoCommand.class,
                ExamplesMain.QuickStartCommand.class})
public final class ExamplesMain implements Runnable {

    /** Exit status for bad input (a bad flag or value, a missing file). */
    public static final int EXIT_BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the example {@code args} name and returns the exit status, without exiting. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /** The configured command line: every example, and bad usage reported as exit status 2 without a stack trace. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new ExamplesMain());
        cli.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("error: " + ex.getMessage());
            ex.getCommandLine().getErr().println("see: hotspare-examples " + ex.getCommandLine().getCommandName() + " --help");
            return EXIT_BAD_INPUT;
        });
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** {@code rollout-demo}: {@link RolloutDemo}; exit status 0 when the rollout succeeded. */
    @Command(name = "rollout-demo", mixinStandardHelpOptions = true,
            description = "A staged rollout of 3 nodes and 40 devices, with failing agents and a controller crash, on virtual time.")
    static final class RolloutDemoCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            return RolloutDemo.run(System.out).phase() == Phase.SUCCEEDED ? 0 : 1;
        }
    }

    /** {@code quick-start}: the README's {@link QuickStart}. */
    @Command(name = "quick-start", mixinStandardHelpOptions = true,
            description = "The README's quick start: a pool on the in-memory default, one claim, the plan printed.")
    static final class QuickStartCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            QuickStart.main(new String[0]);
            return 0;
        }
    }
}
