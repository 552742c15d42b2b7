package dev.hotspare.pool;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.ScheduledOverride;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.Problems;
import dev.hotspare.validation.ValidationException;

import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A spec file's {@code autoSizing} block as written, before it is checked: every field is optional here so that
 * {@link #settings()} can report every missing or bad one at once, each by its name.
 */
record AutoSizingDocument(String targetWait, Integer min, Integer max, Integer maxStep, Duration cooldown,
                          Duration shortWindow, Duration longWindow, BigDecimal leadTimePercentile, Duration resumeTime,
                          Duration installTime, List<String> overrides, String zone, Boolean apply) {

    /** As in {@link SizerSettings#of}. */
    private static final int DEFAULT_MAX_STEP = 2;
    /** As in {@link SizerSettings#of}. */
    private static final BigDecimal DEFAULT_LEAD_TIME_PERCENTILE = BigDecimal.valueOf(90);

    @JsonCreator
    static AutoSizingDocument fromJson(@JsonProperty("targetWait") String targetWait,
                                       @JsonProperty("min") Integer min,
                                       @JsonProperty("max") Integer max,
                                       @JsonProperty("maxStep") Integer maxStep,
                                       @JsonProperty("cooldown") Duration cooldown,
                                       @JsonProperty("shortWindow") Duration shortWindow,
                                       @JsonProperty("longWindow") Duration longWindow,
                                       @JsonProperty("leadTimePercentile") BigDecimal leadTimePercentile,
                                       @JsonProperty("resumeTime") Duration resumeTime,
                                       @JsonProperty("installTime") Duration installTime,
                                       @JsonProperty("overrides") List<String> overrides,
                                       @JsonProperty("zone") String zone,
                                       @JsonProperty("apply") Boolean apply) {
        return new AutoSizingDocument(targetWait, min, max, maxStep, cooldown, shortWindow, longWindow,
                leadTimePercentile, resumeTime, installTime, overrides, zone, apply);
    }

    /** The settings, with {@link SizerSettings#of}'s defaults for what is absent; problems name fields without the block's prefix. */
    SizerSettings settings() {
        Problems problems = new Problems();
        WaitTarget target = null;
        if (targetWait == null) {
            problems.add("targetWait", Problem.MISSING, "required, e.g. p95 <= PT30S");
        } else {
            try {
                target = WaitTarget.parse("targetWait", targetWait);
            } catch (ValidationException e) {
                problems.addAll(e.problems());
            }
        }
        problems.require(max != null, "max", Problem.MISSING, "required: the most hot spares the pool may run");
        List<ScheduledOverride> parsed = new ArrayList<>();
        List<String> written = overrides == null ? List.of() : overrides;
        for (int i = 0; i < written.size(); i++) {
            try {
                parsed.add(ScheduledOverride.parse("overrides[" + i + "]", written.get(i)));
            } catch (ValidationException e) {
                problems.addAll(e.problems());
            }
        }
        ZoneId zoneId = ZoneOffset.UTC;
        if (zone != null) {
            try {
                zoneId = ZoneId.of(zone.strip());
            } catch (DateTimeException e) {
                problems.add("zone", zone, "expected a time zone such as UTC or Europe/Paris");
            }
        }
        problems.throwIfAny();
        // One constructor call, so that every bound is checked together and reported under its own name; the
        // defaults are SizerSettings.of's.
        return new SizerSettings(target, min == null ? 0 : min, max,
                maxStep == null ? DEFAULT_MAX_STEP : maxStep,
                cooldown == null ? SizerSettings.DEFAULT_COOLDOWN : cooldown,
                shortWindow == null ? SizerSettings.DEFAULT_SHORT_WINDOW : shortWindow,
                longWindow == null ? SizerSettings.DEFAULT_LONG_WINDOW : longWindow,
                leadTimePercentile == null ? DEFAULT_LEAD_TIME_PERCENTILE : leadTimePercentile,
                Optional.ofNullable(resumeTime), Optional.ofNullable(installTime), parsed, zoneId,
                apply == null || apply);
    }
}
