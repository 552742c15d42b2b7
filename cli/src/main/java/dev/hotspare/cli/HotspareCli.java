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
            ex.getCommandLine().getErr().println("error: " + CliSupport.plain(String.valueOf(ex.getMessage())));
            ex.getCommandLine().getErr().println("see: hotspare " + ex.getCommandLine().getCommandName() + " --help");
            return EXIT_BAD_INPUT;
        });
        // Option values: the value and the rule it breaks, never the Java type it failed to become.
        cli.registerConverter(java.time.Duration.class, text -> {
            try {
                return java.time.Duration.parse(text);
            } catch (RuntimeException e) {
                throw new CommandLine.TypeConversionException("bad value '" + text + "': must be an ISO-8601 duration such as PT40M or P1D");
            }
        });
        cli.registerConverter(Double.class, text -> number(text, Double::valueOf, "a number"));
        cli.registerConverter(double.class, text -> number(text, Double::valueOf, "a number"));
        cli.registerConverter(Integer.class, text -> number(text, Integer::valueOf, "a whole number"));
        cli.registerConverter(int.class, text -> number(text, Integer::valueOf, "a whole number"));
        cli.registerConverter(Long.class, text -> number(text, Long::valueOf, "a whole number"));
        cli.registerConverter(long.class, text -> number(text, Long::valueOf, "a whole number"));
        // Whatever a command did not expect: one line, no stack trace; bad input it reports itself exits 2.
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof dev.hotspare.validation.ValidationException invalid) {
                return CliSupport.badInput(commandLine.getErr(), commandLine.getCommandName(), invalid);
            }
            String message = ex.getMessage() == null || ex.getMessage().isBlank() ? "unexpected failure" : ex.getMessage();
            commandLine.getErr().println("error: " + commandLine.getCommandName() + ": " + CliSupport.plain(message));
            commandLine.getErr().flush();
            return 1;
        });
        return cli;
    }

    private static <T> T number(String text, java.util.function.Function<String, T> parse, String what) {
        try {
            return parse.apply(text.strip());
        } catch (RuntimeException e) {
            throw new CommandLine.TypeConversionException("bad value '" + text + "': must be " + what);
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
