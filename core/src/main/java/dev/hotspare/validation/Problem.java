package dev.hotspare.validation;

import java.util.Objects;

/**
 * One thing wrong with an input: where it is ({@code path}, e.g. {@code autoscaling.up.metricsTrigger[0].usage}),
 * the value found there (rendered as text, {@code "<missing>"} when absent) and why it is wrong.
 *
 * @param path    dotted field path, with {@code [i]} for list elements; empty for the whole document
 * @param value   the offending value as the user wrote it
 * @param message why the value is rejected, phrased so a user can fix it
 */
public record Problem(String path, String value, String message) {

    /** Marker used as {@link #value()} when a required field is absent. */
    public static final String MISSING = "<missing>";

    public Problem {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(message, "message");
    }

    /**
     * Creates a problem, rendering {@code value} with {@link String#valueOf(Object)}.
     *
     * @param path dotted field path, with {@code [i]} for list elements; empty for the whole document
     * @param value the offending value as the user wrote it
     * @param message why the value is rejected, phrased so a user can fix it
     */
    public static Problem of(String path, Object value, String message) {
        return new Problem(path, String.valueOf(value), message);
    }

    /**
     * One line for humans: {@code path: bad value 'x': message}.
     */
    public String describe() {
        String where = path.isEmpty() ? "(document)" : path;
        return where + ": bad value '" + value + "': " + message;
    }

    @Override
    public String toString() {
        return describe();
    }
}
