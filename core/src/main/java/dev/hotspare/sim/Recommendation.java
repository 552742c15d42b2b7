package dev.hotspare.sim;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Which runningCount a pool needs, chosen from the reports of a runningCount sweep
 * ({@link PoolSimulation#sweep}): the <b>smallest runningCount whose p95 claim wait is at most the target</b> —
 * hot spares cost running member-hours, so the cheapest one that meets the target wins. If no run meets the
 * target, the run with the lowest p95 wait (the smallest runningCount among equals) is returned with
 * {@link #meetsTarget()} false: the best the swept range can do, and a sign that a larger pool or range may help.
 *
 * <pre>{@code
 * List<SimulationReport> sweep = PoolSimulation.sweep(settings, trace, 0, 8, done -> { });
 * Recommendation r = Recommendation.recommend(sweep, Duration.ofMinutes(1));
 * PoolSpec tuned = spec.toBuilder().runningCount(r.runningCount()).build();   // check r.meetsTarget() first
 * }</pre>
 *
 * <p>A pure function of its arguments: it reads no clock and runs no simulation. {@code hotspare simulate}
 * prints it.
 *
 * @param report      the chosen run
 * @param targetP95   the p95 claim-wait target it was chosen against
 * @param meetsTarget whether {@code report}'s p95 wait is at most {@code targetP95}; {@code false} when no report
 *                    met it and {@code report} is the one with the lowest p95 wait
 */
public record Recommendation(SimulationReport report, Duration targetP95, boolean meetsTarget) {

    public Recommendation {
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(targetP95, "targetP95");
    }

    /**
     * The recommendation for {@code reports} (in any order) against a p95 wait target.
     *
     * @param reports   one report per simulated runningCount, at least one
     * @param targetP95 the p95 claim wait to meet, not negative ({@link Duration#ZERO}: every claim served hot)
     * @throws ValidationException naming {@code reports} when it is empty, or {@code targetP95} when it is negative
     */
    public static Recommendation recommend(List<SimulationReport> reports, Duration targetP95) {
        Objects.requireNonNull(reports, "reports");
        Objects.requireNonNull(targetP95, "targetP95");
        List<Problem> problems = new ArrayList<>();
        if (reports.isEmpty()) {
            problems.add(Problem.of("reports", "[]", "needs at least one simulation report"));
        }
        if (targetP95.isNegative()) {
            problems.add(Problem.of("targetP95", targetP95, "must not be negative"));
        }
        if (!problems.isEmpty()) {
            throw new ValidationException(problems);
        }
        Comparator<SimulationReport> byRunningCount = Comparator.comparingInt(SimulationReport::runningCount);
        return reports.stream()
                .filter(r -> r.waitP95().compareTo(targetP95) <= 0)
                .min(byRunningCount)
                .map(r -> new Recommendation(r, targetP95, true))
                .orElseGet(() -> new Recommendation(reports.stream()
                        .min(Comparator.comparing(SimulationReport::waitP95).thenComparing(byRunningCount)).orElseThrow(),
                        targetP95, false));
    }

    /** The recommended runningCount: {@code report().runningCount()}. */
    public int runningCount() {
        return report.runningCount();
    }
}
