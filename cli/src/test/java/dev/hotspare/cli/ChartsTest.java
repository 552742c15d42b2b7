package dev.hotspare.cli;

import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.sim.PoolSimulation.AutoComparison;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The auto-vs-static chart's label for the sizer: a saving only when it meets the target. */
class ChartsTest {

    static final WaitTarget P95_1M = WaitTarget.parse("--auto", "p95<=1m");

    static SimulationReport run(int count, Duration p95, double runningHours) {
        return new SimulationReport(count, 100, 100, Duration.ZERO, p95, p95, p95, 90, 10, 0, runningHours, 10);
    }

    static AutoComparison comparison(SimulationReport auto) {
        SimulationReport zero = run(0, Duration.ofMinutes(5), 600);
        SimulationReport three = run(3, Duration.ofSeconds(10), 1000);
        return new AutoComparison(P95_1M, auto, 1.5, 4, List.of(zero, three), Optional.of(three), zero, Optional.empty());
    }

    @Test
    void aSizerThatMeetsTheTargetIsLabelledWithItsSavingAndTheShareOfTheClairvoyantSaving() {
        assertThat(Charts.autoLabel(comparison(run(0, Duration.ofSeconds(30), 800))))
                .isEqualTo("auto: 20.0% fewer, captures 50% of the clairvoyant saving");
    }

    @Test
    void aSizerThatMissesTheTargetIsNeverLabelledWithASaving() {
        AutoComparison missed = comparison(run(0, Duration.ofMinutes(4), 700));
        assertThat(missed.savingPercent()).contains(30.0);
        assertThat(missed.capturedPercent()).isEmpty();
        assertThat(Charts.autoLabel(missed)).isEqualTo("auto: misses the target");
    }
}
