package dev.hotspare.pool.sizing;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;

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
}
