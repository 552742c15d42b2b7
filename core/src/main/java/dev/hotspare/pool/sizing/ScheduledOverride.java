package dev.hotspare.pool.sizing;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A scheduled bound on the running count, written as an operator would put it in a cron job:
 * {@code Mon-Fri 08:50-17:00 runningCount >= 8}. Days are {@code Mon}…{@code Sun}, ranges ({@code Mon-Fri}), lists
 * ({@code Sat,Sun}) or {@code *}; a window whose end is not after its start runs past midnight (the days name the
 * day it starts). Times are read in the pool's zone. Composes with the sizer: a floor ({@code >=}) raises its
 * value, a cap ({@code <=}) lowers it, {@code =} does both, while the window is open.
 *
 * @param days     the days the window starts on
 * @param from     the window's start (inclusive)
 * @param to       the window's end (exclusive)
 * @param bound    how the count is bounded
 * @param value    the bound
 * @param text     the override as written
 */
public record ScheduledOverride(Set<DayOfWeek> days, LocalTime from, LocalTime to, Bound bound, int value, String text) {

    private static final Pattern TEXT = Pattern.compile(
            "(\\*|[A-Za-z]{3}(?:-[A-Za-z]{3})?(?:,[A-Za-z]{3}(?:-[A-Za-z]{3})?)*)\\s+(\\d{2}:\\d{2})-(\\d{2}:\\d{2})\\s+"
                    + "runningCount\\s*(>=|<=|=)\\s*(\\d{1,6})");

    /** How an override bounds the count. */
    public enum Bound {
        /** {@code >=}: at least the value. */
        AT_LEAST,
        /** {@code <=}: at most the value. */
        AT_MOST,
        /** {@code =}: exactly the value. */
        EXACTLY
    }

    public ScheduledOverride {
        days = Set.copyOf(days);
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        Objects.requireNonNull(bound, "bound");
        Objects.requireNonNull(text, "text");
        if (days.isEmpty()) {
            throw new ValidationException(Problem.of("overrides", text, "names no day"));
        }
        if (value < 0) {
            throw new ValidationException(Problem.of("overrides", text, "the bound must not be negative"));
        }
    }

    /**
     * Reads {@code Mon-Fri 08:50-17:00 runningCount >= 8}.
     *
     * @param field where the text came from, named in errors (e.g. {@code runningCount.overrides[0]})
     * @param text  the override as written
     * @return the override
     * @throws ValidationException naming the field and the bad value
     */
    public static ScheduledOverride parse(String field, String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text,
                    "expected e.g. 'Mon-Fri 08:50-17:00 runningCount >= 8' (days, HH:MM-HH:MM, >=, <= or =)"));
        }
        Set<DayOfWeek> days = days(field, text, m.group(1));
        LocalTime from;
        LocalTime to;
        try {
            from = LocalTime.parse(m.group(2));
            to = LocalTime.parse(m.group(3));
        } catch (DateTimeParseException e) {
            throw new ValidationException(Problem.of(field, text, "times are HH:MM from 00:00 to 23:59"));
        }
        Bound bound = switch (m.group(4)) {
            case ">=" -> Bound.AT_LEAST;
            case "<=" -> Bound.AT_MOST;
            default -> Bound.EXACTLY;
        };
        return new ScheduledOverride(days, from, to, bound, Integer.parseInt(m.group(5)), text.strip());
    }

    /**
     * Whether the window is open at {@code now} in {@code zone}.
     *
     * @param zone the pool's zone
     * @return whether this override applies
     */
    public boolean isOpen(Instant now, ZoneId zone) {
        ZonedDateTime local = now.atZone(zone);
        LocalTime time = local.toLocalTime();
        if (from.isBefore(to)) {
            return days.contains(local.getDayOfWeek()) && !time.isBefore(from) && time.isBefore(to);
        }
        // Past midnight: open from `from` on a listed day until `to` on the next day.
        return (days.contains(local.getDayOfWeek()) && !time.isBefore(from))
                || (days.contains(local.getDayOfWeek().minus(1)) && time.isBefore(to));
    }

    /**
     * {@code count} bounded by this override.
     *
     * @param count the count before the override
     * @return the count after it
     */
    public int apply(int count) {
        return switch (bound) {
            case AT_LEAST -> Math.max(count, value);
            case AT_MOST -> Math.min(count, value);
            case EXACTLY -> value;
        };
    }

    /**
     * The first minute of the week (as {@code Mon 09:00}) at which this override and {@code other} are both open
     * and no count satisfies both (a floor above a cap, or two different exact values); empty when they never
     * contradict each other.
     *
     * @param other another override of the same pool
     * @return when they contradict each other first, if they do
     */
    public java.util.Optional<String> contradiction(ScheduledOverride other) {
        int low = Math.max(bound == Bound.AT_MOST ? 0 : value, other.bound == Bound.AT_MOST ? 0 : other.value);
        int high = Math.min(bound == Bound.AT_LEAST ? Integer.MAX_VALUE : value,
                other.bound == Bound.AT_LEAST ? Integer.MAX_VALUE : other.value);
        if (low <= high) {
            return java.util.Optional.empty();
        }
        // 2024-01-01 was a Monday; the days and times of both are read in one zone, so UTC stands for it.
        Instant monday = Instant.parse("2024-01-01T00:00:00Z");
        for (int minute = 0; minute < 7 * 24 * 60; minute++) {
            Instant at = monday.plusSeconds(minute * 60L);
            if (isOpen(at, java.time.ZoneOffset.UTC) && other.isOpen(at, java.time.ZoneOffset.UTC)) {
                ZonedDateTime t = at.atZone(java.time.ZoneOffset.UTC);
                String day = t.getDayOfWeek().getDisplayName(java.time.format.TextStyle.SHORT, java.util.Locale.ROOT);
                return java.util.Optional.of(day + " " + t.toLocalTime());
            }
        }
        return java.util.Optional.empty();
    }

    private static Set<DayOfWeek> days(String field, String text, String spec) {
        if (spec.equals("*")) {
            return EnumSet.allOf(DayOfWeek.class);
        }
        Set<DayOfWeek> days = EnumSet.noneOf(DayOfWeek.class);
        for (String part : spec.split(",")) {
            String[] range = part.split("-");
            DayOfWeek first = day(field, text, range[0]);
            DayOfWeek last = range.length == 2 ? day(field, text, range[1]) : first;
            for (DayOfWeek d = first; ; d = d.plus(1)) {
                days.add(d);
                if (d == last) {
                    break;
                }
            }
        }
        return days;
    }

    private static DayOfWeek day(String field, String text, String name) {
        for (DayOfWeek d : DayOfWeek.values()) {
            if (d.name().substring(0, 3).equalsIgnoreCase(name)) {
                return d;
            }
        }
        throw new ValidationException(Problem.of(field, text, "'" + name + "' is not a day (Mon, Tue, … Sun)"));
    }

    @Override
    public String toString() {
        return text;
    }
}
