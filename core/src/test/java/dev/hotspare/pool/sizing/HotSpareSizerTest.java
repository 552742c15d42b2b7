package dev.hotspare.pool.sizing;

import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingInput;
import dev.hotspare.pool.sizing.SizerSettings.ScheduledOverride;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The sizer's numbers, worked out by hand in each test's comment. */
class HotSpareSizerTest {

    /** A Monday, 09:00 UTC. */
    static final Instant NOW = Instant.parse("2026-01-05T09:00:00Z");
    static final Duration RESUME = Duration.ofMinutes(5);
    static final Duration INSTALL = Duration.ofMinutes(40);

    /** Claims evenly spaced {@code every} apart, the newest half a period before {@code now}, over 3 hours. */
    static List<Instant> steady(Duration every, Instant now) {
        List<Instant> out = new ArrayList<>();
        for (Instant at = now.minus(every.dividedBy(2)); at.isAfter(now.minus(Duration.ofHours(3))); at = at.minus(every)) {
            out.add(at);
        }
        return out;
    }

    static SizingInput input(List<Instant> arrivals, int current) {
        return new SizingInput(arrivals, List.of(RESUME), List.of(INSTALL), current, Optional.empty(), NOW);
    }

    static SizerSettings settings(String target) {
        return SizerSettings.of(WaitTarget.parse("target", target), 0, 20).withPace(20, Duration.ofMinutes(10));
    }

    @Test
    void oneClaimEvery15MinutesWithFiveMinuteResumesNeedsTwoHotSparesForAZeroWaitP95() {
        // λ = 4/h, mean over R - W = 5 min: 1/3. P(N >= 1) = 0.283, P(N >= 2) = 0.045 <= 0.05.
        SizingDecision d = HotSpareSizer.decide(settings("p95 <= PT0S"), input(steady(Duration.ofMinutes(15), NOW), 0));
        assertThat(d.demand().forecastPerHour()).isCloseTo(4.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.modelled()).isEqualTo(2);
        assertThat(d.runningCount()).isEqualTo(2);
        // Size: mean over I + R = 45 min is 3; P(N >= 6) = 0.084, P(N >= 7) = 0.034: 7, where the rule of thumb says 3.
        assertThat(d.recommendedSize()).isEqualTo(7);
    }

    @Test
    void theOfficeHoursPeakOf11AnHourNeedsFour() {
        // λ = 11/h, mean over 5 min = 0.917: P(N >= 3) = 0.066, P(N >= 4) = 0.015.
        SizingDecision d = HotSpareSizer.decide(settings("p95<=0s"),
                input(steady(Duration.ofSeconds(3600).dividedBy(11), NOW), 0));
        assertThat(d.modelled()).isEqualTo(4);
    }

    @Test
    void aWaitTargetAtLeastTheResumeTimeNeedsNoHotSpare() {
        SizingDecision d = HotSpareSizer.decide(settings("p95 <= 5m"), input(steady(Duration.ofMinutes(2), NOW), 3));
        assertThat(d.modelled()).isZero();
        assertThat(d.runningCount()).isZero();
    }

    @Test
    void aRisingDemandIsPlannedForBeforeItArrives() {
        // Nothing for two hours, then six claims in the last 15 minutes: 24/h recent, 3/h over two hours, and the
        // rise extrapolated over the resume time and half the short window.
        List<Instant> rising = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            rising.add(NOW.minus(Duration.ofMinutes(2).multipliedBy(i + 1)));
        }
        SizingDecision d = HotSpareSizer.decide(settings("p95 <= PT0S"), input(rising, 0));
        assertThat(d.demand().shortRate() * 3600).isCloseTo(24.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.demand().longRate() * 3600).isCloseTo(3.0, org.assertj.core.data.Offset.offset(1e-9));
        // slope = 21/h per 52.5 min; over 12.5 min: +5/h -> 29/h.
        assertThat(d.demand().forecastPerHour()).isCloseTo(29.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.modelled()).isGreaterThan(HotSpareSizer.decide(settings("p95 <= PT0S"),
                input(steady(Duration.ofSeconds(150), NOW), 0)).modelled() - 1);
    }

    @Test
    void itRisesAtOnceByAtMostTheStepAndFallsOnlyAfterTheCooldown() {
        SizerSettings s = SizerSettings.of(WaitTarget.parse("t", "p95<=0s"), 1, 10).withPace(2, Duration.ofMinutes(10));
        List<Instant> busy = steady(Duration.ofMinutes(3), NOW);
        SizingDecision up = HotSpareSizer.decide(s, new SizingInput(busy, List.of(RESUME), List.of(INSTALL), 1,
                Optional.of(NOW.minusSeconds(1)), NOW));
        assertThat(up.runningCount()).as("up at once, even in the cooldown, by at most 2").isEqualTo(3);

        SizingDecision held = HotSpareSizer.decide(s, new SizingInput(List.of(), List.of(RESUME), List.of(INSTALL), 6,
                Optional.of(NOW.minus(Duration.ofMinutes(9))), NOW));
        assertThat(held.runningCount()).isEqualTo(6);
        assertThat(held.changed()).isFalse();
        assertThat(held.explanation()).contains("held until the cooldown passes");

        SizingDecision down = HotSpareSizer.decide(s, new SizingInput(List.of(), List.of(RESUME), List.of(INSTALL), 6,
                Optional.of(NOW.minus(Duration.ofMinutes(10))), NOW));
        assertThat(down.runningCount()).isEqualTo(4);
    }

    @Test
    void scheduledOverridesComposeWithTheModel() {
        SizerSettings s = settings("p95<=0s").withOverrides(List.of(
                ScheduledOverride.parse("o", "Mon-Fri 08:50-17:00 runningCount >= 8"),
                ScheduledOverride.parse("o", "Sat,Sun 00:00-00:00 runningCount <= 1")), ZoneOffset.UTC);
        List<Instant> quiet = steady(Duration.ofMinutes(15), NOW);
        SizingDecision monday = HotSpareSizer.decide(s, input(quiet, 0));
        assertThat(monday.modelled()).isEqualTo(2);
        assertThat(monday.runningCount()).isEqualTo(8);
        assertThat(monday.override()).map(ScheduledOverride::text).contains("Mon-Fri 08:50-17:00 runningCount >= 8");

        Instant saturday = Instant.parse("2026-01-10T12:00:00Z");
        SizingDecision weekend = HotSpareSizer.decide(s, new SizingInput(steady(Duration.ofMinutes(3), saturday),
                List.of(RESUME), List.of(INSTALL), 0, Optional.empty(), saturday));
        assertThat(weekend.modelled()).isGreaterThan(1);
        assertThat(weekend.runningCount()).isEqualTo(1);

        Instant mondayEvening = Instant.parse("2026-01-05T17:00:00Z");
        assertThat(HotSpareSizer.decide(s, new SizingInput(steady(Duration.ofMinutes(15), mondayEvening), List.of(RESUME),
                List.of(INSTALL), 0, Optional.empty(), mondayEvening)).override()).as("17:00 is past the window").isEmpty();
    }

    @Test
    void withoutMeasuredOrDefaultLeadTimesItKeepsTheCount() {
        SizingDecision d = HotSpareSizer.decide(settings("p95<=0s"),
                new SizingInput(steady(Duration.ofMinutes(1), NOW), List.of(), List.of(), 3, Optional.empty(), NOW));
        assertThat(d.runningCount()).isEqualTo(3);
        assertThat(d.explanation()).contains("no resume time measured yet");
        SizingDecision withDefaults = HotSpareSizer.decide(settings("p95<=0s").withDefaultLeadTimes(RESUME, INSTALL),
                new SizingInput(steady(Duration.ofMinutes(15), NOW), List.of(), List.of(), 3, Optional.empty(), NOW));
        assertThat(withDefaults.modelled()).isEqualTo(2);
    }

    @Test
    void leadTimesArePlannedAtTheirNinetiethPercentile() {
        List<Duration> resumes = new ArrayList<>();
        for (int s = 1; s <= 10; s++) {
            resumes.add(Duration.ofMinutes(s));
        }
        assertThat(HotSpareSizer.leadTime(resumes, java.math.BigDecimal.valueOf(90))).contains(Duration.ofMinutes(9));
        assertThat(HotSpareSizer.leadTime(List.of(), java.math.BigDecimal.valueOf(90))).isEmpty();
    }

    @Test
    void targetsAndOverridesAreReadStrictly() {
        assertThat(WaitTarget.parse("t", "p99.9 = 2m").maxWait()).isEqualTo(Duration.ofMinutes(2));
        assertThat(WaitTarget.parse("t", "p95<=PT30S").exceedance()).isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-12));
        assertThatThrownBy(() -> WaitTarget.parse("runningCount.targetWait", "95% under 30s"))
                .isInstanceOf(ValidationException.class).hasMessageContaining("runningCount.targetWait")
                .hasMessageContaining("95% under 30s");
        assertThatThrownBy(() -> ScheduledOverride.parse("overrides[0]", "Mon-Fry 08:50-17:00 runningCount >= 8"))
                .isInstanceOf(ValidationException.class).hasMessageContaining("'Fry' is not a day");
        assertThatThrownBy(() -> ScheduledOverride.parse("overrides[0]", "Mon 25:00-26:00 runningCount >= 8"))
                .isInstanceOf(ValidationException.class).hasMessageContaining("HH:MM");
        assertThatThrownBy(() -> SizerSettings.of(WaitTarget.parse("t", "p95<=0s"), 2, 1))
                .isInstanceOf(ValidationException.class).hasMessageContaining("max");
        assertThat(ScheduledOverride.parse("o", "* 22:00-06:00 runningCount = 2")
                .isOpen(Instant.parse("2026-01-06T05:00:00Z"), ZoneOffset.UTC)).as("past midnight").isTrue();
    }

    @Test
    void aLongWindowWithoutClaimsIsPlannedAsOneClaimPerWindowNotAsNone() {
        // No claim in 2 hours: planned at 1 per 2 h = 0.5/h; mean over R - W = 4 min is 1/30, P(N >= 1) = 0.033 <= 0.05.
        SizerSettings s = SizerSettings.of(WaitTarget.parse("t", "p95 <= PT1M"), 0, 5);
        SizingDecision d = HotSpareSizer.decide(s, input(List.of(), 0));
        assertThat(d.demand().forecastPerHour()).isCloseTo(0.5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.modelled()).isEqualTo(1);
    }

    @Test
    void withoutARiseTheLongWindowsRateIsPlannedNotANoisyShortWindow() {
        // 12 claims spread over 2 hours (6/h), 3 of them in the last 15 minutes (12/h): 3 - 1.5 is within
        // 2 sqrt(1.5) + 1 of the long window's rate, so no rise, and the plan is 6/h.
        List<Instant> arrivals = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            arrivals.add(NOW.minus(Duration.ofMinutes(4 * i + 2)));
        }
        for (int i = 0; i < 9; i++) {
            arrivals.add(NOW.minus(Duration.ofMinutes(20 + 11 * i)));
        }
        SizingDecision d = HotSpareSizer.decide(settings("p95 <= PT1M"), input(arrivals, 0));
        assertThat(d.demand().shortRate() * 3600).isCloseTo(12.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.demand().forecastPerHour()).isCloseTo(6.0, org.assertj.core.data.Offset.offset(1e-9));
    }
}
