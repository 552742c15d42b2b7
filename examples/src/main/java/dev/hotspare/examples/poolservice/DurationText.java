package dev.hotspare.examples.poolservice;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as people type them at a prompt or on a command line: {@code 500ms}, {@code 5s}, {@code 2m},
 * {@code 1h}, or ISO-8601 ({@code PT5S}) as in pool YAML. Also prints them back short.
 */
public final class DurationText {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    private DurationText() {
    }

    /**
     * Parses {@code text}.
     *
     * @param field what the value is for (a flag such as {@code --every}, or {@code lifetime}), named in the error
     * @throws ValidationException naming {@code field} and the bad value
     */
    public static Duration parse(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text,
                    "expected a duration such as 5s, 2m, 1h or PT5S"));
        }
        Matcher m = SHORT.matcher(text);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        }
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new ValidationException(Problem.of(field, text, "expected a duration such as 5s, 2m, 1h or PT5S"));
        }
    }

    /** Parses {@code text} and requires it to be positive. */
    public static Duration parsePositive(String field, String text) {
        Duration d = parse(field, text);
        if (d.isNegative() || d.isZero()) {
            throw new ValidationException(Problem.of(field, text, "must be a positive duration"));
        }
        return d;
    }

    /** Parses {@code text} and requires it not to be negative. */
    public static Duration parseNonNegative(String field, String text) {
        Duration d = parse(field, text);
        if (d.isNegative()) {
            throw new ValidationException(Problem.of(field, text, "must not be negative"));
        }
        return d;
    }

    /** {@code 3.0s}, {@code 2m05s}, {@code 1h02m}: short enough for a table column. */
    public static String format(Duration d) {
        long millis = d.toMillis();
        if (millis < 60_000) {
            return String.format("%d.%ds", millis / 1000, (millis % 1000) / 100);
        }
        long seconds = d.toSeconds();
        if (seconds < 3600) {
            return String.format("%dm%02ds", seconds / 60, seconds % 60);
        }
        return String.format("%dh%02dm", seconds / 3600, (seconds % 3600) / 60);
    }
}
