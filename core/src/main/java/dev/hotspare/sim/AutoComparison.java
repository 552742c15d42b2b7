package dev.hotspare.sim;

import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizingDecision;
import dev.hotspare.pool.sizing.WaitTarget;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The sizer against every static runningCount on the same trace: the trace is replayed once through the real
 * controller with {@code autoSizing} applied, and once per static runningCount in a range; the best static count
 * is the smallest one whose wait at the target's percentile meets the target (hot spares cost running
 * member-hours, so the cheapest that meets it wins), and the saving is how many fewer running member-hours the
 * sizer spent than that count.
 *
 * @param target       the wait target both policies are judged against
 * @param auto         the run with the sizer applied ({@link SimulationReport#runningCount()} is its start)
 * @param meanSized    the sizer's running count averaged over the measured time (time-weighted)
 * @param maxSized     the largest running count the sizer set
 * @param statics      one run per static runningCount, in order
 * @param bestStatic   the smallest static count meeting the target, if one in the range does
 */
public record AutoComparison(WaitTarget target, SimulationReport auto, double meanSized, int maxSized,
                             List<SimulationReport> statics, Optional<SimulationReport> bestStatic) {

    /** The percentiles a {@link SimulationReport} keeps. */
    private static final Set<Integer> REPORTED = Set.of(50, 95, 99);

    public AutoComparison {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(auto, "auto");
        statics = List.copyOf(statics);
        Objects.requireNonNull(bestStatic, "bestStatic");
    }

    /**
     * Replays {@code trace} with {@code sizing} applied and with each static runningCount in {@code from..to}.
     *
     * @param settings the pool and its simulated transition times (its runningCount is ignored)
     * @param trace    the claims, at least one
     * @param sizing   the sizer's settings; its target is the one both policies are judged against
     * @param from     the first static runningCount
     * @param to       the last static runningCount
     * @param progress called with the number of runs done, after each
     * @return the comparison
     * @throws ValidationException naming {@code targetWait.percentile} if the percentile is not one a report
     *                             keeps (50, 95 or 99)
     */
    public static AutoComparison run(SimulationSettings settings, List<ClaimArrival> trace, SizerSettings sizing,
                                     int from, int to, IntConsumer progress) {
        WaitTarget target = sizing.target();
        requireReported(target);
        SizedCount sized = new SizedCount(trace.get(0).at());
        SimulationSettings auto = settings.withAutoSizing(sizing.withApply(true));
        SimulationReport autoReport = PoolSimulation.run(auto, trace, sized);
        progress.accept(1);
        List<SimulationReport> statics = PoolSimulation.sweep(settings, trace, from, to, done -> progress.accept(done + 1));
        Optional<SimulationReport> best = statics.stream().filter(r -> meets(r, target))
                .min(Comparator.comparingInt(SimulationReport::runningCount));
        return new AutoComparison(target, autoReport, sized.mean(lastInstant(trace)), sized.max, statics, best);
    }

    /** The last claim's release: where the measured time ends (the simulation may run a little longer). */
    private static Instant lastInstant(List<ClaimArrival> trace) {
        Instant end = trace.get(0).at();
        for (ClaimArrival a : trace) {
            Instant t = a.at().plus(a.hold());
            if (t.isAfter(end)) {
                end = t;
            }
        }
        return end;
    }

    /**
     * Whether {@code report}'s wait at the target's percentile is at most the target's wait.
     *
     * @param report a run
     * @param target the target
     * @return whether it meets the target
     */
    public static boolean meets(SimulationReport report, WaitTarget target) {
        return waitAt(report, target).compareTo(target.maxWait()) <= 0;
    }

    /**
     * Checks that a report keeps the target's percentile.
     *
     * @param target the target
     * @throws ValidationException naming {@code targetWait.percentile} if it is not 50, 95 or 99
     */
    public static void requireReported(WaitTarget target) {
        BigDecimal p = target.percentile().stripTrailingZeros();
        if (!REPORTED.contains(p.intValue()) || p.compareTo(BigDecimal.valueOf(p.intValue())) != 0) {
            throw new ValidationException(Problem.of("targetWait.percentile", p.toPlainString(),
                    "the simulator reports p50, p95 and p99 waits; use one of those"));
        }
    }

    /**
     * {@code report}'s wait at the target's percentile.
     *
     * @param report a run
     * @param target the target
     * @return the wait
     * @throws ValidationException naming {@code targetWait.percentile} if it is not 50, 95 or 99
     */
    public static Duration waitAt(SimulationReport report, WaitTarget target) {
        Objects.requireNonNull(report, "report");
        requireReported(target);
        return switch (target.percentile().intValue()) {
            case 50 -> report.waitP50();
            case 95 -> report.waitP95();
            default -> report.waitP99();
        };
    }

    /**
     * How many fewer running member-hours the sizer spent than the best static count, in percent of the static
     * count's (negative when it spent more).
     *
     * @return the saving, if a static count met the target
     */
    public Optional<Double> savingPercent() {
        return bestStatic.map(b -> 100.0 * (b.runningMemberHours() - auto.runningMemberHours()) / b.runningMemberHours());
    }

    /**
     * Whether the sizer's run meets the target.
     *
     * @return whether its wait at the target's percentile is at most the target's wait
     */
    public boolean autoMeetsTarget() {
        return meets(auto, target);
    }

    /**
     * Integrates the sizer's count over virtual time, from the first claim to the end of the trace. Decisions carry
     * no time; the plan applied right after one in the same pass does, so the count changes at that pass.
     */
    private static final class SizedCount implements PoolListener {
        private final Instant from;
        private Instant since;
        private int count;
        private int pending;
        private double weightedSeconds;
        private int max;

        SizedCount(Instant from) {
            this.from = from;
            this.since = from;
        }

        @Override
        public void sizingDecided(String pool, SizingDecision decision, boolean applied) {
            pending = decision.runningCount();
        }

        @Override
        public void onPlanApplied(String pool, PoolPlan plan, Instant now) {
            advance(now);
            count = pending;
            if (!now.isBefore(from)) {
                max = Math.max(max, count);
            }
        }

        private void advance(Instant now) {
            // Passes before the first claim are not counted: `since` starts there.
            if (now.isAfter(since)) {
                weightedSeconds += count * (double) Duration.between(since, now).toMillis() / 1000;
                since = now;
            }
        }

        double mean(Instant end) {
            advance(end);
            double seconds = Duration.between(from, end).toMillis() / 1000.0;
            return seconds <= 0 ? count : weightedSeconds / seconds;
        }
    }
}
