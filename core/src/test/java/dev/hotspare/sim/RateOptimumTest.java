package dev.hotspare.sim;

import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.ClaimTraces.RateStep;
import dev.hotspare.sim.PoolSimulation.AutoComparison;
import dev.hotspare.sim.PoolSimulation.CountChange;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

import static dev.hotspare.sim.AutoComparisonTest.CI;
import static dev.hotspare.sim.AutoComparisonTest.MONDAY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

/**
 * The rate-knowing bound by optimisation (issue 23): the Lagrangian path of schedules that know the diurnal trace's
 * true rate but not its arrivals.
 */
class RateOptimumTest {

    static final WaitTarget P95_1M = WaitTarget.parse("--auto", "p95<=PT1M");
    static final Duration RESUME = Duration.ofMinutes(5);

    @Test
    void theBudgetGoesToQuietHoursBeforeThePeakLosesASpareAndRisesComeAResumeTimeEarly() {
        Instant nine = MONDAY.plus(Duration.ofHours(9));
        Instant five = nine.plus(Duration.ofHours(8));
        List<RateStep> rate = List.of(new RateStep(MONDAY, 0.5), new RateStep(nine, 11), new RateStep(five, 0.5));
        RateOptimum path = RateOptimum.of(rate, MONDAY, MONDAY.plus(Duration.ofDays(1)), RESUME, P95_1M, 16, 12);

        // Hours saved per expected wait: a quiet slot 1 -> 0 saves 1 / (0.5 x e^-0.033) = 2.07 h a wait, a peak slot
        // 3 -> 2 only 1 / (11 x P(Poisson(0.733) = 2)) = 0.70 h, so every quiet 1 -> 0 comes first.
        int lastQuietToZero = -1;
        int firstPeakToTwo = Integer.MAX_VALUE;
        int n = 0;
        int peakAtThree = -1;
        for (int i = 0; i < path.size(); i++) {
            int[] k = path.counts(i + 1);
            int[] before = path.counts(i);
            for (int s = 0; s < k.length; s++) {
                if (k[s] != before[s]) {
                    Instant at = MONDAY.plus(RateOptimum.SLOT.multipliedBy(s));
                    boolean peak = !at.isBefore(nine.plus(RESUME)) && at.isBefore(five);
                    boolean quiet = at.isBefore(nine.minus(RESUME)) || !at.isBefore(five.plus(RESUME));
                    if (quiet && k[s] == 0) {
                        lastQuietToZero = i;
                    }
                    if (peak && k[s] == 2) {
                        firstPeakToTwo = Math.min(firstPeakToTwo, i);
                    }
                }
            }
            if (peakAtThree < 0 && k[(int) (Duration.ofHours(12).toMinutes() / 5)] == 3) {
                peakAtThree = i + 1;
            }
        }
        assertThat(lastQuietToZero).isLessThan(firstPeakToTwo);

        // Where the peak holds three and the night one, the count rises at 08:55 and falls at 17:00.
        int[] counts = path.counts(peakAtThree);
        assertThat(counts[(int) (Duration.ofHours(3).toMinutes() / 5)]).isEqualTo(1);
        assertThat(path.schedule(peakAtThree)).contains(new CountChange(nine.minus(RESUME), 3), new CountChange(five, 1));
        assertThat(path.expectedWaits(peakAtThree)).isGreaterThan(path.expectedWaits(0));
    }

    /**
     * The diurnal goal (60% of the clairvoyant saving: at most 2229 running member-hours on the 14-day trace,
     * seed 1, against static 3's 2782.4 h and the arrival-clairvoyant 1859.9 h) is beyond schedules that know the
     * rate. The path's best position for this very sample — chosen on its replay, so fitted to its arrivals — spends
     * 2249.5 h (57.8%); where the path reaches 2229 h the p95 is 1 min 32 s; the position that meets the target on
     * all of six seeds spends 2272.9 h here (55.3%). Two replays pinned; the search and the seeds:
     * {@link #theBoundOverSeeds()}.
     */
    @Test
    void onTheFourteenDayDiurnalTraceTheRateKnowingOptimumStaysBelowSixtyPercent() {
        List<ClaimArrival> twoWeeks = ClaimTraces.diurnal(MONDAY, Duration.ofDays(14), Duration.ofHours(1), 1);
        RateOptimum path = path(twoWeeks);
        SimulationReport fitted = replay(path, 10_326, twoWeeks);
        assertThat(fitted.runningMemberHours()).isCloseTo(2249.5, offset(0.05)).isGreaterThan(2229);
        assertThat(AutoComparison.meets(fitted, P95_1M)).as("p95 %s", fitted.waitP95()).isTrue();
        SimulationReport goal = replay(path, 10_598, twoWeeks);
        assertThat(goal.runningMemberHours()).isLessThanOrEqualTo(2229);
        assertThat(goal.waitP95()).isGreaterThan(Duration.ofSeconds(90));
    }

    static RateOptimum path(List<ClaimArrival> trace) {
        ClaimArrival last = trace.get(trace.size() - 1);
        return RateOptimum.of(ClaimTraces.diurnalRate(MONDAY, Duration.ofDays(14)), MONDAY, last.at().plus(last.hold()), RESUME,
                P95_1M, 16, AutoComparison.BLOCK_SLOTS);
    }

    static SimulationReport replay(RateOptimum path, int n, List<ClaimArrival> trace) {
        List<CountChange> schedule = path.schedule(n);
        return PoolSimulation.runScheduled(CI.withRunningCount(schedule.get(0).runningCount()), trace, schedule);
    }
}
