package dev.hotspare.cli;

import picocli.CommandLine;

import java.io.PrintWriter;
import picocli.CommandLine.Command;

/**
 * The {@code hotspare} command-line program. Each subcommand is its own class; register new ones in
 * {@link #commandLine()}.
 */
@Command(name = "hotspare", mixinStandardHelpOptions = true, versionProvider = HotspareCli.BuildVersion.class,
        description = "Pools of expensive, slow-to-start members: simulate, plan, validate, roll out.",
        subcommands = {CommandLine.HelpCommand.class, SimulateCommand.class, PlanCommand.class, ValidateCommand.class,
                AutoscaleCommand.class, DiffCommand.class, RolloutCli.class})
public final class HotspareCli implements java.util.concurrent.Callable<Integer> {

    /** Exit status for bad input (missing file, unknown field, bad value). */
    public static final int EXIT_BAD_INPUT = 2;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Runs the CLI and exits with its status.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs the CLI with {@code args} and returns the exit status, without exiting.
     *
     * @param args the command line
     */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    /**
     * The configured command line: every subcommand, and bad usage reported as exit status 2 without a stack trace.
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new HotspareCli());
        // Colours only when both streams are terminals: escapes in a log file or a pipe are noise.
        cli.setColorScheme(CommandLine.Help.defaultColorScheme(CliSupport.terminal() ? CommandLine.Help.Ansi.AUTO
                : CommandLine.Help.Ansi.OFF));
        cli.setParameterExceptionHandler((ex, args) -> {
            PrintWriter err = ex.getCommandLine().getErr();
            err.println("error: " + CliSupport.plain(String.valueOf(ex.getMessage())));
            if (ex instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
                String given = unmatched.getUnmatched().get(0);
                CommandLine.Model.CommandSpec where = ex.getCommandLine().getCommandSpec();
                java.util.Collection<String> known = given.startsWith("-")
                        ? where.options().stream().flatMap(o -> java.util.Arrays.stream(o.names())).toList()
                        : where.subcommands().keySet();
                dev.hotspare.validation.Suggestions.closest(given, known)
                        .ifPresent(closest -> err.println("did you mean: " + closest + "?"));
            }
            err.println("see: hotspare " + (ex.getCommandLine().getParent() == null ? "" : ex.getCommandLine().getCommandName() + " ")
                    + "--help");
            return EXIT_BAD_INPUT;
        });
        // Option values: the value and the rule it breaks, never the Java type it failed to become.
        cli.registerConverter(java.time.Duration.class, text -> {
            try {
                return dev.hotspare.validation.Durations.parse("duration", text);
            } catch (dev.hotspare.validation.ValidationException e) {
                throw new CommandLine.TypeConversionException("bad value '" + text
                        + "': must be a duration such as 500ms, 30s, 40m, 2h30m or PT40M");
            }
        });
        cli.registerConverter(java.time.Instant.class, text -> {
            try {
                return java.time.Instant.parse(text.strip());
            } catch (java.time.format.DateTimeParseException e) {
                throw new CommandLine.TypeConversionException("bad value '" + text
                        + "': must be an ISO-8601 instant in UTC such as 2026-01-01T12:00:00Z");
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

    /** Bare {@code hotspare}: a subcommand is required, so the usage goes to stderr and the status is 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_BAD_INPUT;
    }

    /** The version this jar was built as, from the build (never a literal in the source). */
    static final class BuildVersion implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"hotspare " + dev.hotspare.internal.HotspareVersion.current()};
        }
    }
}
