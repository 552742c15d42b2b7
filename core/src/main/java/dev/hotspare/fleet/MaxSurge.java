package dev.hotspare.fleet;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many rooms a rolling update replaces at once: a share of the current rooms ({@code "25%"}) or a number of
 * rooms ({@code "3"}), as Maestro 10 writes it. Either way at least one room per chunk.
 *
 * @param value   the percentage (1..100) or the number of rooms (at least 1)
 * @param percent whether {@code value} is a percentage
 */
public record MaxSurge(int value, boolean percent) {

    /** Maestro's default: a quarter of the rooms at a time. */
    public static final MaxSurge DEFAULT = new MaxSurge(25, true);

    private static final Pattern TEXT = Pattern.compile("\\s*(\\d{1,9})\\s*(%?)\\s*");

    /**
     * Checks the value.
     *
     * @throws IllegalArgumentException for a percentage outside 1..100 or a count below 1
     * @param value the percentage (1..100) or the number of rooms (at least 1)
     * @param percent whether {@code value} is a percentage
     */
    public MaxSurge {
        if (value < 1 || (percent && value > 100)) {
            throw new IllegalArgumentException("maxSurge: bad value '" + value + (percent ? "%" : "")
                    + "': must be a percentage in 1..100 or a number of rooms of at least 1");
        }
    }

    /**
     * A share of the current rooms.
     *
     * @param percent 1..100
     * @return the max surge
     */
    public static MaxSurge percent(int percent) {
        return new MaxSurge(percent, true);
    }

    /**
     * A number of rooms.
     *
     * @param rooms at least 1
     * @return the max surge
     */
    public static MaxSurge rooms(int rooms) {
        return new MaxSurge(rooms, false);
    }

    /**
     * Parses {@code "25%"} (a share of the rooms) or {@code "3"} (rooms).
     *
     * @param field the field named in a problem ({@code maxSurge}, {@code maxsurge})
     * @return the max surge
     * @throws ValidationException naming {@code field} and the text when it is neither
     */
    public static MaxSurge parse(String field, String text) {
        Matcher m = text == null ? null : TEXT.matcher(text);
        if (m != null && m.matches()) {
            int value = Integer.parseInt(m.group(1));
            boolean percent = !m.group(2).isEmpty();
            if (value >= 1 && (!percent || value <= 100)) {
                return new MaxSurge(value, percent);
            }
        }
        throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text,
                "must be a percentage of the rooms in 1%..100% (\"25%\") or a number of rooms of at least 1 (\"3\")"));
    }

    /**
     * Rooms replaced per chunk when the scheduler has {@code rooms} rooms: ceil(rooms × percent / 100), or the
     * number, and never below one.
     *
     * @param rooms the current rooms
     * @return the chunk size
     */
    public int chunkSize(int rooms) {
        long size = percent ? ((long) rooms * value + 99) / 100 : value;
        return (int) Math.max(1, size);
    }

    @Override
    public String toString() {
        return value + (percent ? "%" : "");
    }
}
