package dev.hotspare.sim;

import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.ClaimTraces.RateStep;
import dev.hotspare.sim.PoolSimulation.AutoComparison;
import dev.hotspare.sim.PoolSimulation.CountChange;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import dev.hotspare.sim.PoolSimulation.SimulationSettings;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The sizer against static counts on one week of the diurnal CI trace: 40-minute installs, 5-minute resumes. */
class AutoComparisonTest {

    static final Instant MONDAY = Instant.parse("2026-01-05T00:00:00Z");
    static final SimulationSettings CI = new SimulationSettings(PoolSpec.builder("ci").size(16).build(),
            Duration.ofMinutes(40), Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(1));
    static final SizerSettings P95_1M = SizerSettings.of(WaitTarget.parse("--auto", "p95<=PT1M"), 0, 16)
            .withDefaultLeadTimes(Duration.ofMinutes(5), Duration.ofMinutes(40));

    @Test
    void theSizerMeetsTheTargetOnFewerRunningHoursThanTheBestStaticCount() {
        List<ClaimArrival> week = ClaimTraces.diurnal(MONDAY, Duration.ofDays(7), Duration.ofHours(1), 1);
        int[] runs = {0};
        AutoComparison c = AutoComparison.run(CI, week, P95_1M, 0, 4, done -> runs[0] = done);

        assertThat(runs[0]).as("one auto run and five static ones").isEqualTo(6);
        assertThat(c.statics()).extracting(SimulationReport::runningCount).containsExactly(0, 1, 2, 3, 4);
        assertThat(c.bestStatic()).map(SimulationReport::runningCount).contains(3);
        assertThat(c.statics().get(2).waitP95()).as("2 does not meet it").isGreaterThan(Duration.ofMinutes(1));
        assertThat(c.autoMeetsTarget()).isTrue();
        SimulationReport best = c.bestStatic().orElseThrow();
        assertThat(c.savingPercent()).contains(100 * (best.runningMemberHours() - c.auto().runningMemberHours())
                / best.runningMemberHours());
        assertThat(c.savingPercent().orElseThrow()).isGreaterThan(10);
        assertThat(c.maxSized()).isBetween(0, 16);
        assertThat(c.meanSized()).isBetween(1.0, 3.0);
    }

    @Test
    void theClairvoyantBoundsAreTheZeroRunAndTheBestRateKnowingScheduleAndTheCapturedShareFollows() {
        List<ClaimArrival> week = ClaimTraces.diurnal(MONDAY, Duration.ofDays(7), Duration.ofHours(1), 1);
        AutoComparison c = AutoComparison.run(CI, week, P95_1M, ClaimTraces.diurnalRate(MONDAY, Duration.ofDays(7)), 0, 4,
                done -> { });

        assertThat(c.arrivalClairvoyant()).isEqualTo(c.statics().get(0));
        SimulationReport best = c.bestStatic().orElseThrow();
        double possible = best.runningMemberHours() - c.arrivalClairvoyantHours();
        assertThat(c.capturedPercent()).contains(100 * (best.runningMemberHours() - c.auto().runningMemberHours()) / possible);
        AutoComparison.RateClairvoyant knowing = c.rateClairvoyant().orElseThrow();
        assertThat(AutoComparison.meets(knowing.report(), P95_1M.target())).isTrue();
        assertThat(knowing.report().runningMemberHours()).as("knowing the rate is no worse than the best static count")
                .isLessThanOrEqualTo(best.runningMemberHours())
                .isGreaterThan(c.arrivalClairvoyantHours());
        assertThat(knowing.tried()).isPositive();
    }

    @Test
    void aRateKnowingScheduleRaisesTheCountOneResumeTimeAheadOfTheRise() {
        Instant nine = MONDAY.plus(Duration.ofHours(9));
        List<RateStep> rate = List.of(new RateStep(MONDAY, 0.5), new RateStep(nine, 11), new RateStep(nine.plus(Duration.ofHours(8)), 0.5));
        // exposure 4 min: 0.5/h -> mean 0.033, P(N >= 1) = 0.033 (k 1 at exceedance 0.05); 11/h -> mean 0.733 (k 3)
        assertThat(AutoComparison.schedule(rate, Duration.ofMinutes(5), 4 / 60.0, 0, 0.05, 16)).containsExactly(
                new CountChange(MONDAY.minus(Duration.ofMinutes(5)), 1),
                new CountChange(nine.minus(Duration.ofMinutes(5)), 3),
                new CountChange(nine.plus(Duration.ofHours(8)), 1));
    }

    @Test
    void onAStationaryPoissonTraceTheSizerIsWithinTenPercentOfTheBestStaticCount() {
        for (long seed = 1; seed <= 3; seed++) {
            List<ClaimArrival> days = ClaimTraces.poisson(4, MONDAY, Duration.ofDays(4), Duration.ofHours(1), seed);
            AutoComparison c = AutoComparison.run(CI, days, P95_1M, 0, 3, done -> { });
            SimulationReport best = c.bestStatic().orElseThrow();
            assertThat(c.autoMeetsTarget()).as("seed %d: auto p95 %s", seed, c.auto().waitP95()).isTrue();
            assertThat(c.auto().runningMemberHours()).as("seed %d: static %d", seed, best.runningCount())
                    .isLessThanOrEqualTo(1.10 * best.runningMemberHours());
        }
    }

    @Test
    void theSameTraceGivesTheSameComparison() {
        List<ClaimArrival> day = ClaimTraces.diurnal(MONDAY, Duration.ofDays(1), Duration.ofHours(1), 3);
        assertThat(AutoComparison.run(CI, day, P95_1M, 2, 3, done -> { }))
                .isEqualTo(AutoComparison.run(CI, day, P95_1M, 2, 3, done -> { }));
    }

    @Test
    void aPercentileTheReportsDoNotKeepIsNamed() {
        SizerSettings p90 = SizerSettings.of(WaitTarget.parse("--auto", "p90<=PT1M"), 0, 4);
        List<ClaimArrival> one = List.of(new ClaimArrival(MONDAY, Duration.ofHours(1)));
        assertThatThrownBy(() -> AutoComparison.run(CI, one, p90, 0, 1, done -> { }))
                .isInstanceOf(ValidationException.class)
                .hasMessage("targetWait.percentile: bad value '90': the simulator reports p50, p95 and p99 waits; use one of those");
    }

    /**
     * The diurnal goal — 60% of the clairvoyant saving, at most 2229 running member-hours over the 14-day
     * trace (static 3: 2782.4 h, arrival-clairvoyant 1859.9 h) — is out of reach of schedules that know the true
     * rate, not only of the sizer: each schedule here knows it exactly and is raised a resume time ahead of the
     * 09:00 rise; the cheapest that meets p95 <= 1 min spends 2262.7 h (56%), and those under 2229 h miss the
     * target. Pinned, so a change to the simulator that moves the ceiling is seen. (Hand-built; the optimised
     * rate-knowing bound is in {@link RateOptimumTest}.)
     */
    @Test
    void onTheFourteenDayDiurnalTraceNoScheduleKnowingTheRateReachesSixtyPercentOfTheClairvoyantSaving() {
        List<ClaimArrival> twoWeeks = ClaimTraces.diurnal(MONDAY, Duration.ofDays(14), Duration.ofHours(1), 1);
        // Weekdays 08:55-17:00 three spares (from 16:00 two in the second), one otherwise, except the hours given zero.
        record Shape(String name, boolean twoFromFour, int nightZeroUntil, boolean weekendsOnly, double hours, boolean meets) {
        }
        List<Shape> shapes = List.of(
                new Shape("3 by day, 1 at night", false, 0, false, 2272.3, true),
                new Shape("3 by day (2 from 16:00), 1 at night", true, 0, false, 2262.7, true),
                new Shape("3 by day, 0 from 00:00 to 03:00, 1 otherwise", false, 3, false, 2232.7, false),
                new Shape("3 by day, 0 on weekend mornings, 1 otherwise", false, 12, true, 2226.3, false));
        for (Shape shape : shapes) {
            List<CountChange> schedule = new java.util.ArrayList<>();
            int last = -1;
            for (Instant t = MONDAY; t.isBefore(MONDAY.plus(Duration.ofDays(15))); t = t.plus(Duration.ofMinutes(5))) {
                java.time.ZonedDateTime z = t.atZone(java.time.ZoneOffset.UTC);
                int minute = z.getHour() * 60 + z.getMinute();
                boolean weekday = z.getDayOfWeek().getValue() <= 5;
                int k = weekday && minute >= 8 * 60 + 55 && minute < 17 * 60 ? (shape.twoFromFour() && minute >= 16 * 60 ? 2 : 3)
                        : minute < shape.nightZeroUntil() * 60 && (!shape.weekendsOnly() || !weekday) ? 0 : 1;
                if (k != last) {
                    schedule.add(new CountChange(t, k));
                    last = k;
                }
            }
            SimulationReport r = PoolSimulation.runScheduled(CI.withRunningCount(schedule.get(0).runningCount()), twoWeeks, schedule);
            assertThat(r.runningMemberHours()).as(shape.name()).isCloseTo(shape.hours(), org.assertj.core.data.Offset.offset(0.05));
            assertThat(AutoComparison.meets(r, P95_1M.target())).as(shape.name() + ", p95 " + r.waitP95()).isEqualTo(shape.meets());
            if (shape.meets()) {
                assertThat(r.runningMemberHours()).as(shape.name()).isGreaterThan(2229);
            }
        }
    }
}
