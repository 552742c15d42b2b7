package dev.hotspare.sim;

import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.PoolSimulation.Recommendation;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The runningCount recommendation {@code hotspare simulate} prints (README, docs/pools.md). */
class RecommendationTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static SimulationReport run(int runningCount, Duration p95) {
        return new SimulationReport(runningCount, 100, 100, Duration.ZERO, p95, p95, p95, 50, 50, 0,
                10.0 * runningCount, 100.0 - 10 * runningCount);
    }

    @Test
    void theSmallestRunningCountThatMeetsTheTargetWinsEvenIfALargerOneWaitsLess() {
        List<SimulationReport> sweep = List.of(run(0, Duration.ofMinutes(5)), run(1, Duration.ofSeconds(251)),
                run(2, Duration.ofSeconds(30)), run(3, Duration.ZERO), run(4, Duration.ZERO));
        Recommendation r = Recommendation.recommend(sweep, MINUTE);
        assertThat(r.runningCount()).isEqualTo(2);
        assertThat(r.report()).isSameAs(sweep.get(2));
        assertThat(r.meetsTarget()).isTrue();
        assertThat(r.targetP95()).isEqualTo(MINUTE);
    }

    @Test
    void aP95WaitEqualToTheTargetMeetsIt() {
        Recommendation r = Recommendation.recommend(List.of(run(0, Duration.ofSeconds(61)), run(1, MINUTE), run(2, Duration.ZERO)), MINUTE);
        assertThat(r.runningCount()).isEqualTo(1);
        assertThat(r.meetsTarget()).isTrue();
    }

    @Test
    void aZeroTargetAsksForEveryClaimAtP95ServedAtOnce() {
        Recommendation r = Recommendation.recommend(List.of(run(0, MINUTE), run(1, Duration.ofSeconds(1)), run(2, Duration.ZERO)),
                Duration.ZERO);
        assertThat(r.runningCount()).isEqualTo(2);
        assertThat(r.meetsTarget()).isTrue();
    }

    @Test
    void whenNoneMeetsTheTargetTheLowestP95WaitIsReturnedAndSaysSo() {
        List<SimulationReport> sweep = List.of(run(0, Duration.ofMinutes(9)), run(1, Duration.ofMinutes(4)),
                run(2, Duration.ofMinutes(3)), run(3, Duration.ofMinutes(3)), run(4, Duration.ofMinutes(5)));
        Recommendation r = Recommendation.recommend(sweep, MINUTE);
        assertThat(r.runningCount()).as("lowest p95; the smaller of two equal ones").isEqualTo(2);
        assertThat(r.report()).isSameAs(sweep.get(2));
        assertThat(r.meetsTarget()).isFalse();
    }

    @Test
    void theOrderOfTheReportsDoesNotMatter() {
        List<SimulationReport> shuffled = List.of(run(3, Duration.ZERO), run(0, Duration.ofMinutes(5)), run(2, Duration.ofSeconds(30)),
                run(1, Duration.ofSeconds(251)));
        assertThat(Recommendation.recommend(shuffled, MINUTE).runningCount()).isEqualTo(2);
        List<SimulationReport> noneMeets = List.of(run(3, Duration.ofMinutes(3)), run(2, Duration.ofMinutes(3)), run(0, Duration.ofMinutes(9)));
        assertThat(Recommendation.recommend(noneMeets, MINUTE).runningCount()).isEqualTo(2);
    }

    @Test
    void theSeedsCiPoolNeedsTwoHotSparesForAOneMinuteP95() {
        // hotspare simulate's defaults: one claim per 15 min held 1 h, 40 min install, 5 min resume, 30 days, seed 1.
        List<ClaimArrival> trace = ClaimTraces.poisson(4, PoolSimulationTest.START, Duration.ofDays(30), Duration.ofHours(1), 1);
        List<SimulationReport> sweep = PoolSimulation.sweep(PoolSimulationTest.CI_POOL, trace, 0, 3, done -> { });
        Recommendation r = Recommendation.recommend(sweep, MINUTE);
        assertThat(r.runningCount()).isEqualTo(2);
        assertThat(r.meetsTarget()).isTrue();
    }

    @Test
    void noReportsOrANegativeTargetAreProblemsNamingTheArgument() {
        assertThatThrownBy(() -> Recommendation.recommend(List.of(), Duration.ofSeconds(-1)))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems()).extracting(p -> p.describe())
                        .containsExactly("reports: bad value '[]': needs at least one simulation report",
                                "targetP95: bad value 'PT-1S': must not be negative"));
    }
}
