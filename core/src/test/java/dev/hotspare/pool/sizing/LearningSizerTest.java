package dev.hotspare.pool.sizing;

import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingInput;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.pool.sizing.SizingHistory.ClaimWait;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the sizer learns from its history, on exact examples: the daily profile and its pre-warm, the flat profile,
 * the error budget and bursts. Resume 5 min, install 40 min, target p95 <= 1 min (so 4 exposed minutes), bounds
 * 0..16, step and cooldown out of the way.
 */
class LearningSizerTest {

    /** Monday 2026-01-05 00:00 UTC: history starts here. */
    static final Instant MONDAY = Instant.parse("2026-01-05T00:00:00Z");
    static final Duration RESUME = Duration.ofMinutes(5);
    static final SizerSettings P95_1M = SizerSettings.of(WaitTarget.parse("t", "p95<=PT1M"), 0, 16)
            .withDefaultLeadTimes(RESUME, Duration.ofMinutes(40)).withPace(16, Duration.ZERO);

    /** Claims every {@code every} in [from, to). */
    static List<Instant> every(Duration every, Instant from, Instant to) {
        List<Instant> out = new ArrayList<>();
        for (Instant t = from; t.isBefore(to); t = t.plus(every)) {
            out.add(t);
        }
        return out;
    }

    /** An office day: a claim every 5 min 09:00-17:00, one every 2 h otherwise. */
    static List<Instant> officeDays(int days) {
        List<Instant> out = new ArrayList<>();
        for (int d = 0; d < days; d++) {
            Instant day = MONDAY.plus(Duration.ofDays(d));
            out.addAll(every(Duration.ofHours(2), day, day.plus(Duration.ofHours(9))));
            out.addAll(every(Duration.ofMinutes(5), day.plus(Duration.ofHours(9)), day.plus(Duration.ofHours(17))));
            out.addAll(every(Duration.ofHours(2), day.plus(Duration.ofHours(17)), day.plus(Duration.ofHours(24))));
        }
        return out;
    }

    static SizingDecision decide(List<Instant> all, Instant now, int current, List<ClaimWait> waits) {
        List<Instant> seen = all.stream().filter(t -> t.isBefore(now)).toList();
        List<Instant> recent = seen.stream().filter(t -> !t.isBefore(now.minus(Duration.ofHours(2)))).toList();
        return HotSpareSizer.decide(P95_1M, new SizingInput(recent, List.of(RESUME), List.of(Duration.ofMinutes(40)), current,
                Optional.empty(), now, new SizingHistory(Optional.of(MONDAY), seen, waits)));
    }

    @Test
    void withoutHistoryTheSizerIsReactiveAsBefore() {
        Instant now = MONDAY.plus(Duration.ofHours(10));
        SizingDecision d = decide(officeDays(1), now, 0, List.of());
        // 12 claims in (08:00, 10:00] (the night's 08:00 claim is on the window's open edge): 6/h.
        assertThat(d.demand().longRate() * 3600).isCloseTo(6.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(d.explanation()).contains("recent").doesNotContain("profile");
        assertThat(d.basis()).isEqualTo(SizingDecision.Basis.FORECAST);
    }

    @Test
    void aDailyProfilePreWarmsOneResumeTimeAheadOfTheMorningRamp() {
        List<Instant> days = officeDays(4);
        // Thursday 08:56: nothing but the night's claims in the last 2 h, but 09:01 is in the profile's peak.
        Instant beforeRamp = MONDAY.plus(Duration.ofDays(3)).plus(Duration.ofHours(8)).plus(Duration.ofMinutes(56));
        SizingDecision warm = decide(days, beforeRamp, 0, List.of());
        assertThat(warm.explanation()).contains("from the daily profile");
        assertThat(warm.basis()).isEqualTo(SizingDecision.Basis.FORECAST);
        // The profile around 09:01 (08:31-09:31): 6 + 0.25 x the mean, per hour about 6.5/h: mean over 4 min 0.43 -> 3 (P(N>=3) = 0.011).
        assertThat(warm.runningCount()).isEqualTo(3);
        // At 07:00 the profile is the night's: one spare for a claim every 2 h (P(N >= 1) = 0.03).
        SizingDecision night = decide(days, MONDAY.plus(Duration.ofDays(3)).plus(Duration.ofHours(7)), 3, List.of());
        assertThat(night.runningCount()).isEqualTo(1);
        assertThat(night.explanation()).contains("from the daily profile");
    }

    @Test
    void aFlatHistoryIsPlannedAtItsMeanRate() {
        List<Instant> flat = every(Duration.ofMinutes(15), MONDAY, MONDAY.plus(Duration.ofDays(3)));
        SizingDecision d = decide(flat, MONDAY.plus(Duration.ofDays(2)), 0, List.of());
        assertThat(d.explanation()).contains("4.00 claims/h from the flat profile");
        // mean over 4 min 0.267: P(N>=2) = 0.030.
        assertThat(d.runningCount()).isEqualTo(2);
    }

    @Test
    void anUnspentBudgetSpendsWaitsInTheTroughAndMissesTightenIt() {
        List<Instant> days = officeDays(4);
        Instant night = MONDAY.plus(Duration.ofDays(3)).plus(Duration.ofHours(3));
        List<Instant> served = days.stream().filter(t -> t.isBefore(night)).toList();
        List<ClaimWait> none = served.stream().map(t -> new ClaimWait(t, Duration.ZERO)).toList();
        SizingDecision spend = decide(days, night, 1, none);
        // No claim waited: a wait is priced below what a spare costs at 0.5/h, so the trough goes without.
        assertThat(spend.runningCount()).isZero();
        assertThat(spend.basis()).isEqualTo(SizingDecision.Basis.BUDGET);
        assertThat(spend.explanation()).contains("budget: 0 of " + served.size() + " claims over PT1M");

        List<ClaimWait> missed = new ArrayList<>();
        for (int i = 0; i < served.size(); i++) {
            missed.add(new ClaimWait(served.get(i), i % 10 == 0 ? Duration.ofMinutes(5) : Duration.ZERO));
        }
        SizingDecision tight = decide(days, night, 0, missed);
        assertThat(tight.runningCount()).as("10% waited, twice what p95 allows: the trough keeps its spare").isEqualTo(1);
    }

    @Test
    void aFewMissesAmongFewClaimsMoveThePriceAsIfTwentyWaitsWereAllowed() {
        Instant now = MONDAY.plus(Duration.ofDays(1));
        List<ClaimWait> waits = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waits.add(new ClaimWait(MONDAY.plus(Duration.ofMinutes(10L * i)), i < 5 ? Duration.ofMinutes(5) : Duration.ZERO));
        }
        Learned.Budget small = Learned.Budget.of(waits, Duration.ofMinutes(1), 0.05, now);
        // 5 allowed, 3 aimed at, 5 missed: judged against 20, not 5.
        assertThat(small.allowed()).isCloseTo(5, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(small.factor()).isCloseTo(Math.exp(4 * 2 / 20.0), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void overDispersedArrivalsHoldTheCountTheirBurstsNeeded() {
        List<Instant> bursts = new ArrayList<>(every(Duration.ofHours(1), MONDAY, MONDAY.plus(Duration.ofDays(1))));
        for (int b = 0; b < 4; b++) {
            Instant at = MONDAY.plus(Duration.ofHours(3 + 6L * b));
            // ten claims 20 s apart: the last ones have up to 9 claims in the 4 exposed minutes before them
            bursts.addAll(every(Duration.ofSeconds(20), at, at.plusSeconds(200)));
        }
        bursts.sort(null);
        SizingDecision d = decide(bursts, MONDAY.plus(Duration.ofHours(23)), 0, List.of());
        assertThat(d.basis()).isEqualTo(SizingDecision.Basis.BURST);
        assertThat(d.explanation()).contains("bursts: dispersion");
        // Each burst starts on an hourly claim: 11 claims within 200 s, the last with 10 before it in the exposed
        // 4 min; 63 claims, 5% = 3 may wait, and the four bursts' last claims are the 4 largest: 10 + 1.
        assertThat(d.runningCount()).isEqualTo(Learned.measuredCount(Learned.sortedMillis(bursts.stream()
                .filter(t -> t.isBefore(MONDAY.plus(Duration.ofHours(23)))).toList()), 240_000, 0.05, 16));
        assertThat(d.runningCount()).isEqualTo(11);
    }
}
