package dev.hotspare.examples.poolservice;

import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Reads one stdin line into a {@link PoolCommand}. Pure; bad input is a {@link ValidationException} whose
 * problems name the command's argument and the bad value, every problem of the line at once.
 */
public final class CommandParser {

    /** The command summary printed by {@code help} and after a bad line. */
    public static final String USAGE = "commands: claim <name> [lifetime] | release <name> | explain <name> | status | delete"
            + " | help | quit   (lifetime: 30s, 5m, 1h or PT30S)";

    private static final List<String> COMMANDS = List.of("claim", "release", "explain", "status", "delete", "help", "quit");

    private CommandParser() {
    }

    /**
     * Parses {@code line}; blank lines and {@code #} comments are empty.
     *
     * @throws ValidationException with one problem per thing wrong on the line
     */
    public static Optional<PoolCommand> parse(String line) {
        String trimmed = line.strip();
        if (trimmed.isEmpty() || trimmed.startsWith("#")) {
            return Optional.empty();
        }
        String[] words = trimmed.split("\\s+");
        String verb = words[0].toLowerCase(java.util.Locale.ROOT);
        Problems problems = new Problems();
        PoolCommand command = switch (verb) {
            case "claim" -> claim(words, problems);
            case "release" -> named(words, problems, "release", PoolCommand.Release::new);
            case "explain" -> named(words, problems, "explain", PoolCommand.Explain::new);
            case "delete" -> noArguments(words, problems, new PoolCommand.Delete());
            case "status" -> noArguments(words, problems, new PoolCommand.Status());
            case "help" -> noArguments(words, problems, new PoolCommand.Help());
            case "quit", "exit" -> noArguments(words, problems, new PoolCommand.Quit());
            default -> {
                String hint = closest(verb).map(c -> "; did you mean '" + c + "'?").orElse("");
                problems.add("command", words[0], "unknown command; expected one of " + COMMANDS + hint);
                yield null;
            }
        };
        problems.throwIfAny();
        return Optional.of(command);
    }

    private static PoolCommand claim(String[] words, Problems problems) {
        if (words.length < 2) {
            problems.add("claim.name", Problem.MISSING, "usage: claim <name> [lifetime]");
            return null;
        }
        Names.dns1123LabelProblem(words[1]).ifPresent(why -> problems.add("claim.name", words[1], why));
        Optional<Duration> lifetime = Optional.empty();
        if (words.length >= 3) {
            try {
                lifetime = Optional.of(DurationText.parsePositive("claim.lifetime", words[2]));
            } catch (ValidationException e) {
                problems.addAll(e.problems());
            }
        }
        if (words.length > 3) {
            problems.add("claim", String.join(" ", List.of(words).subList(3, words.length)),
                    "unexpected extra arguments; usage: claim <name> [lifetime]");
        }
        return new PoolCommand.Claim(words[1], lifetime);
    }

    /** A command taking one claim name: {@code release <name>}, {@code explain <name>}. */
    private static PoolCommand named(String[] words, Problems problems, String verb,
                                     java.util.function.Function<String, PoolCommand> command) {
        if (words.length < 2) {
            problems.add(verb + ".name", Problem.MISSING, "usage: " + verb + " <name>");
            return null;
        }
        Names.dns1123LabelProblem(words[1]).ifPresent(why -> problems.add(verb + ".name", words[1], why));
        if (words.length > 2) {
            problems.add(verb, String.join(" ", List.of(words).subList(2, words.length)),
                    "unexpected extra arguments; usage: " + verb + " <name>");
        }
        return command.apply(words[1]);
    }

    private static PoolCommand noArguments(String[] words, Problems problems, PoolCommand command) {
        if (words.length > 1) {
            problems.add(words[0], String.join(" ", List.of(words).subList(1, words.length)), "takes no arguments");
        }
        return command;
    }

    private static Optional<String> closest(String verb) {
        return dev.hotspare.validation.Suggestions.closest(verb, COMMANDS);
    }
}
