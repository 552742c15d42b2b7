package dev.hotspare.validation;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration syntax of hotspare's command line, files and services: ISO-8601 ({@code PT40M}, {@code P1D}) or
 * the short form people type — one or more of {@code <n>d}, {@code <n>h}, {@code <n>m}, {@code <n>s},
 * {@code <n>ms}, largest unit first, each at most once ({@code 40m}, {@code 2h30m}, {@code 500ms}, {@code 1m30s}).
 */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(?:(\\d{1,9})d)?(?:(\\d{1,9})h)?(?:(\\d{1,9})m(?!s))?(?:(\\d{1,9})s)?(?:(\\d{1,9})ms)?");
    private static final String EXPECTED = "expected a duration such as 500ms, 30s, 40m, 2h30m or PT40M";

    private Durations() {
    }

    /**
     * Parses {@code text}.
     *
     * @param field what the value is for (a flag such as {@code --install}, or a path such as {@code hibernateAfter}),
     *              named in the error
     * @param text  the text to parse
     * @return the duration
     * @throws ValidationException naming {@code field} and the bad value
     */
    public static Duration parse(String field, String text) {
        if (text == null || text.isBlank()) {
            throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text, EXPECTED));
        }
        String trimmed = text.strip();
        Matcher m = SHORT.matcher(trimmed);
        Duration parsed;
        if (m.matches() && !trimmed.isEmpty()) {
            try {
                parsed = Duration.ofDays(part(m, 1)).plusHours(part(m, 2)).plusMinutes(part(m, 3)).plusSeconds(part(m, 4))
                        .plusMillis(part(m, 5));
            } catch (ArithmeticException e) {
                throw new ValidationException(Problem.of(field, text, TOO_LONG));
            }
        } else {
            try {
                parsed = Duration.parse(trimmed);
            } catch (DateTimeParseException | ArithmeticException e) {
                throw new ValidationException(Problem.of(field, text, EXPECTED));
            }
        }
        if (parsed.abs().compareTo(MAX) > 0) {
            // Beyond this, nanosecond and millisecond arithmetic downstream overflows (Duration.toNanos at ~292 years).
            throw new ValidationException(Problem.of(field, text, TOO_LONG));
        }
        return parsed;
    }

    /** The longest duration read: 100 years (36,500 days). */
    public static final Duration MAX = Duration.ofDays(36_500);
    private static final String TOO_LONG = "is too long a duration (at most 36500d, 100 years)";

    /**
     * Parses {@code text} and requires it to be positive.
     *
     * @param field what the value is for, named in the error
     * @param text  the text to parse
     * @return the duration, greater than zero
     * @throws ValidationException naming {@code field} and the bad value
     */
    public static Duration parsePositive(String field, String text) {
        Duration d = parse(field, text);
        if (d.isNegative() || d.isZero()) {
            throw new ValidationException(Problem.of(field, text, "must be a positive duration"));
        }
        return d;
    }

    /**
     * The short form of {@code duration}, as {@link #parse} reads it back: {@code 2h30m}, {@code 500ms}, {@code 0s}.
     *
     * @param duration a duration that is not negative
     */
    public static String format(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("duration: bad value '" + duration + "': must not be negative");
        }
        if (duration.isZero()) {
            return "0s";
        }
        StringBuilder out = new StringBuilder();
        append(out, duration.toDaysPart(), "d");
        append(out, duration.toHoursPart(), "h");
        append(out, duration.toMinutesPart(), "m");
        append(out, duration.toSecondsPart(), "s");
        append(out, duration.toMillisPart(), "ms");
        return out.length() == 0 ? duration.toString() : out.toString();
    }

    private static void append(StringBuilder out, long amount, String unit) {
        if (amount > 0) {
            out.append(amount).append(unit);
        }
    }

    private static long part(Matcher m, int group) {
        return m.group(group) == null ? 0 : Long.parseLong(m.group(group));
    }
}
