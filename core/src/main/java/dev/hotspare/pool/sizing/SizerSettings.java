package dev.hotspare.pool.sizing;

import dev.hotspare.validation.Durations;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;
import java.util.Set;
import java.util.EnumSet;
import java.time.format.DateTimeParseException;
import java.time.ZonedDateTime;
import java.time.LocalTime;
import java.time.Instant;
import java.time.DayOfWeek;
import java.util.regex.Pattern;
import java.util.regex.Matcher;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * How a pool sizes its hot spares itself ({@code runningCount: auto}).
 *
 * @param target             the claim-wait target, e.g. {@code p95 <= PT30S}
 * @param min                the fewest hot spares, however quiet it gets
 * @param max                the most hot spares, however busy it gets
 * @param maxStep            the most the count changes in one decision (>= 1)
 * @param cooldown           after a change, how long before the count may go down again (it may always go up)
 * @param shortWindow        the recent window whose arrival rate sees a rise early (default 15 min)
 * @param longWindow         the window whose arrival rate smooths noise (default 2 h), longer than the short one
 * @param leadTimePercentile which percentile of the measured resume and install times to plan with (default 90)
 * @param defaultResumeTime  the resume time to plan with until one is measured
 * @param defaultInstallTime the install time to plan with until one is measured
 * @param overrides          scheduled floors and caps, applied after the sizer
 * @param zone               the zone the overrides' days and times are read in (default UTC)
 * @param apply              whether the controller applies the decisions ({@code false}: shadow mode, only logged
 *                           and reported)
 */
public record SizerSettings(WaitTarget target, int min, int max, int maxStep, Duration cooldown, Duration shortWindow,
                            Duration longWindow, BigDecimal leadTimePercentile, Optional<Duration> defaultResumeTime,
                            Optional<Duration> defaultInstallTime, List<ScheduledOverride> overrides, ZoneId zone,
                            boolean apply) {

    /** Default cooldown before the count goes down again. */
    public static final Duration DEFAULT_COOLDOWN = Duration.ofMinutes(10);
    /** Default short window. */
    public static final Duration DEFAULT_SHORT_WINDOW = Duration.ofMinutes(15);
    /** Default long window. */
    public static final Duration DEFAULT_LONG_WINDOW = Duration.ofHours(2);

    public SizerSettings {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(cooldown, "cooldown");
        Objects.requireNonNull(shortWindow, "shortWindow");
        Objects.requireNonNull(longWindow, "longWindow");
        Objects.requireNonNull(leadTimePercentile, "leadTimePercentile");
        defaultResumeTime = Objects.requireNonNullElse(defaultResumeTime, Optional.empty());
        defaultInstallTime = Objects.requireNonNullElse(defaultInstallTime, Optional.empty());
        overrides = List.copyOf(overrides);
        Objects.requireNonNull(zone, "zone");
        Problems problems = new Problems();
        if (min < 0) {
            problems.addAll(List.of(Problem.of("min", min, "must not be negative")));
        }
        if (max < min) {
            problems.addAll(List.of(Problem.of("max", max, "must be at least min (" + min + ")")));
        }
        if (maxStep < 1) {
            problems.addAll(List.of(Problem.of("maxStep", maxStep, "must be at least 1")));
        }
        if (cooldown.isNegative()) {
            problems.addAll(List.of(Problem.of("cooldown", cooldown, "must not be negative")));
        }
        if (shortWindow.isNegative() || shortWindow.isZero()) {
            problems.addAll(List.of(Problem.of("shortWindow", shortWindow, "must be positive")));
        }
        if (longWindow.compareTo(shortWindow) <= 0) {
            problems.addAll(List.of(Problem.of("longWindow", longWindow, "must be longer than shortWindow (" + shortWindow + ")")));
        }
        if (leadTimePercentile.signum() <= 0 || leadTimePercentile.compareTo(BigDecimal.valueOf(100)) > 0) {
            problems.addAll(List.of(Problem.of("leadTimePercentile", leadTimePercentile.toPlainString(), "must be in (0, 100]")));
        }
        defaultResumeTime.filter(d -> d.isNegative()).ifPresent(d -> problems.addAll(List.of(Problem.of("defaultResumeTime", d, "must not be negative"))));
        defaultInstallTime.filter(d -> d.isNegative()).ifPresent(d -> problems.addAll(List.of(Problem.of("defaultInstallTime", d, "must not be negative"))));
        for (int i = 0; i < overrides.size(); i++) {
            ScheduledOverride o = overrides.get(i);
            if (o.value() < min || o.value() > max) {
                problems.addAll(List.of(Problem.of("overrides[" + i + "]", o.text(), "its bound must lie within min..max (" + min + ".." + max + ")")));
            }
            int later = i;
            for (int j = 0; j < i; j++) {
                int earlier = j;
                String earlierText = overrides.get(j).text();
                // Silently letting the later one win would hide a mistake in the schedule.
                o.contradiction(overrides.get(j)).ifPresent(when -> problems.addAll(List.of(Problem.of("overrides[" + later + "]",
                        o.text(), "contradicts overrides[" + earlier + "] ('" + earlierText + "') from " + when
                                + ": no running count satisfies both"))));
            }
        }
        problems.throwIfAny();
    }

    /**
     * Settings with the defaults: step 2, cooldown 10 min, windows 15 min and 2 h, lead times at their 90th
     * percentile, no default lead times, no overrides, UTC, applied.
     *
     * @param target the claim-wait target
     * @param min    the fewest hot spares
     * @param max    the most hot spares
     */
    public static SizerSettings of(WaitTarget target, int min, int max) {
        return new SizerSettings(target, min, max, 2, DEFAULT_COOLDOWN, DEFAULT_SHORT_WINDOW, DEFAULT_LONG_WINDOW,
                BigDecimal.valueOf(90), Optional.empty(), Optional.empty(), List.of(), ZoneOffset.UTC, true);
    }

    /**
     * These settings planning with {@code resume} and {@code install} until lead times are measured.
     *
     * @param resume  the expected resume time
     * @param install the expected install time
     */
    public SizerSettings withDefaultLeadTimes(Duration resume, Duration install) {
        return new SizerSettings(target, min, max, maxStep, cooldown, shortWindow, longWindow, leadTimePercentile,
                Optional.of(resume), Optional.of(install), overrides, zone, apply);
    }

    /**
     * These settings with {@code overrides} read in {@code zone}.
     *
     * @param overrides the scheduled floors and caps
     * @param zone      the zone their days and times are read in
     */
    public SizerSettings withOverrides(List<ScheduledOverride> overrides, ZoneId zone) {
        return new SizerSettings(target, min, max, maxStep, cooldown, shortWindow, longWindow, leadTimePercentile,
                defaultResumeTime, defaultInstallTime, overrides, zone, apply);
    }

    /**
     * These settings with another step and cooldown.
     *
     * @param maxStep  the most the count changes per decision
     * @param cooldown how long after a change before the count may go down
     */
    public SizerSettings withPace(int maxStep, Duration cooldown) {
        return new SizerSettings(target, min, max, maxStep, cooldown, shortWindow, longWindow, leadTimePercentile,
                defaultResumeTime, defaultInstallTime, overrides, zone, apply);
    }

    /**
     * These settings in shadow mode ({@code false}) or applied ({@code true}).
     *
     * @param value whether decisions are applied
     */
    public SizerSettings withApply(boolean value) {
        return new SizerSettings(target, min, max, maxStep, cooldown, shortWindow, longWindow, leadTimePercentile,
                defaultResumeTime, defaultInstallTime, overrides, zone, value);
    }

    /**
     * A claim-wait target: the {@code percentile}-th percentile of claim waits is at most {@code maxWait}, written
     * {@code p95 <= PT30S} (also {@code p95<=30s}, {@code p99.9 = 2m}).
     *
     * @param percentile in (0, 100), e.g. 95
     * @param maxWait    the wait that percentile may reach, not negative
     */
    public record WaitTarget(BigDecimal percentile, Duration maxWait) {

        private static final Pattern TEXT = Pattern.compile("p(\\d{1,2}(?:\\.\\d{1,4})?)\\s*(?:<=|=)\\s*(\\S+)");

        public WaitTarget {
            Objects.requireNonNull(percentile, "percentile");
            Objects.requireNonNull(maxWait, "maxWait");
            if (percentile.signum() <= 0 || percentile.compareTo(BigDecimal.valueOf(100)) >= 0) {
                throw new ValidationException(Problem.of("targetWait.percentile", percentile.toPlainString(),
                        "must be between 0 and 100, exclusive"));
            }
            if (maxWait.isNegative()) {
                throw new ValidationException(Problem.of("targetWait.maxWait", maxWait, "must not be negative"));
            }
        }

        /**
         * Reads {@code p95 <= PT30S}.
         *
         * @param field what the text is for, named in errors (e.g. {@code runningCount.targetWait} or {@code --auto})
         * @param text  the target as written
         * @return the target
         * @throws ValidationException naming the field and the bad value
         */
        public static WaitTarget parse(String field, String text) {
            Matcher m = TEXT.matcher(text == null ? "" : text.strip());
            if (!m.matches()) {
                throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text,
                        "expected a wait target such as p95 <= PT30S or p99=2m"));
            }
            return new WaitTarget(new BigDecimal(m.group(1)), Durations.parse(field, m.group(2)));
        }

        /** The share of claims allowed to wait longer than {@link #maxWait()}: {@code 1 - percentile / 100}. */
        public double exceedance() {
            return BigDecimal.ONE.subtract(percentile.movePointLeft(2)).doubleValue();
        }

        @Override
        public String toString() {
            return "p" + percentile.stripTrailingZeros().toPlainString() + " <= " + maxWait;
        }
    }

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
}
