package dev.hotspare.sim;

import dev.hotspare.pool.PoolSpec;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import dev.hotspare.sim.PoolSimulation.SimulationSettings;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The seed's CI-pool scenario: one claim per 15 minutes, 40-minute installs, 5-minute resumes. */
class PoolSimulationTest {

    static final Instant START = Instant.parse("2026-01-05T00:00:00Z");
    static final SimulationSettings CI_POOL = new SimulationSettings(PoolSpec.builder("ci").size(8).build(),
            Duration.ofMinutes(40), Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(1));

    @Test
    void withoutHotSparesEveryClaimWaitsForAResume() {
        List<ClaimArrival> trace = ClaimTraces.poisson(4, START, Duration.ofDays(7), Duration.ofHours(1), 7);
        SimulationReport report = PoolSimulation.run(CI_POOL.withRunningCount(0), trace);
        assertThat(report.claims()).isEqualTo(trace.size());
        assertThat(report.served()).isEqualTo(trace.size());
        assertThat(report.servedHot()).isZero();
        assertThat(report.waitP50()).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void hotSparesServeMostClaimsImmediatelyAtTheCostOfRunningHours() {
        List<ClaimArrival> trace = ClaimTraces.poisson(4, START, Duration.ofDays(30), Duration.ofHours(1), 7);
        List<SimulationReport> sweep = PoolSimulation.sweep(CI_POOL, trace, 0, 3, done -> { });
        assertThat(sweep).extracting(SimulationReport::runningCount).containsExactly(0, 1, 2, 3);
        SimulationReport three = sweep.get(3);
        assertThat(three.hotShare()).isGreaterThan(0.9);
        assertThat(three.waitP50()).isEqualTo(Duration.ZERO);
        assertThat(three.runningMemberHours()).isGreaterThan(sweep.get(0).runningMemberHours());
        assertThat(three.hibernatedMemberHours()).isLessThan(sweep.get(0).hibernatedMemberHours());
        for (int i = 1; i < sweep.size(); i++) {
            assertThat(sweep.get(i).servedHot()).isGreaterThanOrEqualTo(sweep.get(i - 1).servedHot());
        }
    }

    @Test
    void anEmptyPoolServesClaimsColdAfterAnInstall() {
        List<ClaimArrival> trace = List.of(new ClaimArrival(START, Duration.ofMinutes(30)));
        SimulationSettings empty = new SimulationSettings(PoolSpec.builder("ci").size(0).build(), Duration.ofMinutes(40),
                Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(1));
        SimulationReport report = PoolSimulation.run(empty, trace);
        assertThat(report.servedCold()).isEqualTo(1);
        assertThat(report.waitMax()).isEqualTo(Duration.ofMinutes(40));
    }

    @Test
    void poissonTracesAreReproducibleAndHaveTheAskedRate() {
        List<ClaimArrival> a = ClaimTraces.poisson(4, START, Duration.ofDays(30), Duration.ofHours(1), 42);
        assertThat(ClaimTraces.poisson(4, START, Duration.ofDays(30), Duration.ofHours(1), 42)).isEqualTo(a);
        assertThat(a.size()).isBetween(2700, 3060);
    }

    @Test
    void csvTracesReportEveryBadLine() {
        assertThat(ClaimTraces.parseCsv(List.of("time,hold", "2026-01-05T09:00:00Z,PT1H", "# comment", "")))
                .containsExactly(new ClaimArrival(Instant.parse("2026-01-05T09:00:00Z"), Duration.ofHours(1)));
        assertThatThrownBy(() -> ClaimTraces.parseCsv(List.of("2026-01-05T09:00:00Z,PT1H", "yesterday,PT1H", "2026-01-05T09:00:00Z,an hour", "x")))
                .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.problems())
                        .extracting(dev.hotspare.validation.Problem::path)
                        .containsExactly("line 2.time", "line 3.hold", "line 4"));
    }
}
