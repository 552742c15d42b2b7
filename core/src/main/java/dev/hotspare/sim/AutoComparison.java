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
import java.util.ArrayList;
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
 * @param arrivalClairvoyant the run with runningCount 0, whose running member-hours are those of a policy that knew
 *                     each arrival and resumed a member exactly one resume time before it: the same transitions,
 *                     shifted, so nobody waits (the lower bound on running member-hours of any policy that serves
 *                     every claim hot)
 * @param rateClairvoyant the cheapest schedule found that knows the trace's true rate but not its arrivals and
 *                     meets the target, when the rate is known (built-in traces)
 */
public record AutoComparison(WaitTarget target, SimulationReport auto, double meanSized, int maxSized,
                             List<SimulationReport> statics, Optional<SimulationReport> bestStatic,
                             SimulationReport arrivalClairvoyant, Optional<RateClairvoyant> rateClairvoyant) {

    /**
     * The rate-clairvoyant bound: the cheapest schedule found that knows the rate function, not the arrivals, and
     * meets the target. Found by optimisation: per 5-minute slot, the count minimising spare-hours + price × the
     * Poisson model's expected waits over the target, the price swept (as single decrements of one slot, in order of
     * hours saved per wait added) to the last schedule whose replay meets the target; each count is raised a resume
     * time before its slot. The per-moment quantile schedules {@code max(floor, k(λ))} (floors 0–2, exceedances
     * 0.001–0.5; cheaper on bursts, which the path's Poisson model fits worst) and the best
     * static count are kept when cheaper. The position on the path is chosen on this trace's replay, so on a
     * generated trace the bound is a little optimistic for that sample (one number fitted to its arrivals); no
     * policy that must learn the rate should expect to beat it.
     *
     * @param report   the best schedule's run (or the best static count's)
     * @param schedule the schedule, for people (its place on the path and its expected waits, or {@code static 3})
     * @param tried    how many schedules were replayed
     */
    public record RateClairvoyant(SimulationReport report, String schedule, int tried) {
    }

    /** The percentiles a {@link SimulationReport} keeps. */
    private static final Set<Integer> REPORTED = Set.of(50, 95, 99);

    public AutoComparison {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(auto, "auto");
        statics = List.copyOf(statics);
        Objects.requireNonNull(bestStatic, "bestStatic");
        Objects.requireNonNull(arrivalClairvoyant, "arrivalClairvoyant");
        Objects.requireNonNull(rateClairvoyant, "rateClairvoyant");
    }

    /**
     * {@link #run(SimulationSettings, List, SizerSettings, List, int, int, IntConsumer)} for a trace whose rate is
     * not known (no rate-clairvoyant bound).
     *
     * @param settings the pool and its simulated transition times (its runningCount is ignored)
     * @param trace    the claims, at least one
     * @param sizing   the sizer's settings; its target is the one both policies are judged against
     * @param from     the first static runningCount
     * @param to       the last static runningCount
     * @param progress called with the number of runs done, after each
     * @return the comparison
     */
    public static AutoComparison run(SimulationSettings settings, List<ClaimArrival> trace, SizerSettings sizing,
                                     int from, int to, IntConsumer progress) {
        return run(settings, trace, sizing, List.of(), from, to, progress);
    }

    /**
     * Replays {@code trace} with {@code sizing} applied and with each static runningCount in {@code from..to}.
     *
     * @param settings the pool and its simulated transition times (its runningCount is ignored)
     * @param trace    the claims, at least one
     * @param sizing   the sizer's settings; its target is the one both policies are judged against
     * @param rate     the trace's true rate as steps, or empty when it is not known
     * @param from     the first static runningCount
     * @param to       the last static runningCount
     * @param progress called with the number of runs done, after each (the bounds' runs are not counted)
     * @return the comparison
     * @throws ValidationException naming {@code targetWait.percentile} if the percentile is not one a report
     *                             keeps (50, 95 or 99)
     */
    public static AutoComparison run(SimulationSettings settings, List<ClaimArrival> trace, SizerSettings sizing,
                                     List<RateStep> rate, int from, int to, IntConsumer progress) {
        WaitTarget target = sizing.target();
        requireReported(target);
        SizedCount sized = new SizedCount(trace.get(0).at());
        SimulationSettings auto = settings.withAutoSizing(sizing.withApply(true));
        SimulationReport autoReport = PoolSimulation.run(auto, trace, sized);
        progress.accept(1);
        List<SimulationReport> statics = PoolSimulation.sweep(settings, trace, from, to, done -> progress.accept(done + 1));
        Optional<SimulationReport> best = statics.stream().filter(r -> meets(r, target))
                .min(Comparator.comparingInt(SimulationReport::runningCount));
        SimulationReport zero = from == 0 ? statics.get(0) : PoolSimulation.run(settings.withRunningCount(0), trace);
        Optional<RateClairvoyant> knowing = rate.isEmpty() ? Optional.empty()
                : Optional.of(rateClairvoyant(settings, trace, target, rate, best, to));
        return new AutoComparison(target, autoReport, sized.mean(lastInstant(trace)), sized.max, statics, best, zero, knowing);
    }

    /** The rate-knowing path's blocks: equally worth decrements are taken 4 hours (48 slots) at a time. */
    static final int BLOCK_SLOTS = 48;
    /** The floors and exceedances of the per-moment quantile schedules also tried. */
    private static final int[] FLOORS = {0, 1, 2};
    private static final double[] EPSILONS = {0.5, 0.35, 0.25, 0.15, 0.1, 0.05, 0.02, 0.01, 0.001};

    private static RateClairvoyant rateClairvoyant(SimulationSettings settings, List<ClaimArrival> trace, WaitTarget target,
                                                   List<RateStep> rate, Optional<SimulationReport> bestStatic, int max) {
        RateClairvoyant best = bestStatic.map(b -> new RateClairvoyant(b, "static " + b.runningCount(), 0)).orElse(null);
        // 1. The optimisation: the Lagrangian path, positioned by bisection on the replay.
        RateOptimum path = RateOptimum.of(rate, rate.get(0).from(), lastInstant(trace), settings.resumeTime(), target, max,
                BLOCK_SLOTS);
        Optional<RateOptimum.Found> found = path.search(target, schedule -> PoolSimulation.runScheduled(
                settings.withRunningCount(schedule.get(0).runningCount()), trace, schedule));
        int tried = found.map(RateOptimum.Found::replays).orElse(1);
        if (found.isPresent() && (best == null || found.get().report().runningMemberHours() < best.report().runningMemberHours())) {
            best = new RateClairvoyant(found.get().report(), String.format(java.util.Locale.ROOT,
                    "%d of %d decrements on the Lagrangian path, %.1f waits expected", found.get().moves(), path.size(),
                    found.get().expectedWaits()), 0);
        }
        // 2. The per-moment quantile schedules: the path's Poisson model fits bursts worst (knowing the rate, a burst's
        // count is known, not Poisson), and there one of these can be cheaper (bursty, 14 days: 1934.4 h against the
        // path's 1971.6 h).
        double exposedHours = Math.max(0, settings.resumeTime().minus(target.maxWait()).toMillis() / 3_600_000.0);
        Set<List<CountChange>> seen = new java.util.HashSet<>();
        for (int floor : FLOORS) {
            for (double epsilon : EPSILONS) {
                List<CountChange> schedule = schedule(rate, settings.resumeTime(), exposedHours, floor, epsilon, max);
                if (!seen.add(schedule)) {
                    continue;
                }
                tried++;
                SimulationReport r = PoolSimulation.runScheduled(settings.withRunningCount(schedule.get(0).runningCount()),
                        trace, schedule);
                if (meets(r, target) && (best == null || r.runningMemberHours() < best.report().runningMemberHours())) {
                    best = new RateClairvoyant(r, String.format(java.util.Locale.ROOT, "floor %d, per-moment exceedance %s",
                            floor, epsilon), 0);
                }
            }
        }
        if (best == null) {
            // Nothing met the target: report the static count with the lowest wait as what was reached.
            SimulationReport fallback = PoolSimulation.run(settings.withRunningCount(max), trace);
            best = new RateClairvoyant(fallback, "none meets the target; static " + max, tried);
        }
        return new RateClairvoyant(best.report(), best.schedule(), tried);
    }

    /** The schedule {@code max(floor, k(λ))}, raised a resume time ahead of each rise of the rate. */
    static List<CountChange> schedule(List<RateStep> rate, Duration resume, double exposedHours, int floor, double epsilon, int max) {
        java.util.TreeSet<Instant> points = new java.util.TreeSet<>();
        for (RateStep step : rate) {
            points.add(step.from());
            points.add(step.from().minus(resume));
        }
        List<CountChange> out = new ArrayList<>();
        int last = -1;
        for (Instant at : points) {
            int k = Math.min(max, Math.max(count(RateStep.rateAt(rate, at), exposedHours, floor, epsilon),
                    count(RateStep.rateAt(rate, at.plus(resume)), exposedHours, floor, epsilon)));
            if (k != last) {
                out.add(new CountChange(at, k));
                last = k;
            }
        }
        return out;
    }

    private static int count(double perHour, double exposedHours, int floor, double epsilon) {
        return Math.max(floor, dev.hotspare.pool.sizing.HotSpareSizer.poissonCount(perHour * exposedHours, epsilon, 1000));
    }

    /**
     * The arrival-clairvoyant bound's running member-hours: those of the runningCount-0 run.
     */
    public double arrivalClairvoyantHours() {
        return arrivalClairvoyant.runningMemberHours();
    }

    /**
     * How much of the clairvoyant saving the sizer captures: {@code (best static - auto) / (best static -
     * arrival-clairvoyant)}, in percent; empty when no static count meets the target, when the sizer misses it
     * (a policy that misses the target has no saving), or when the bound saves nothing.
     *
     * @return the share, in percent (negative when the sizer spends more than the best static count)
     */
    public Optional<Double> capturedPercent() {
        if (bestStatic.isEmpty() || !autoMeetsTarget()) {
            return Optional.empty();
        }
        double possible = bestStatic.get().runningMemberHours() - arrivalClairvoyantHours();
        if (possible <= 0) {
            return Optional.empty();
        }
        return Optional.of(100 * (bestStatic.get().runningMemberHours() - auto.runningMemberHours()) / possible);
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
     * @return whether it meets the target
     */
    public static boolean meets(SimulationReport report, WaitTarget target) {
        return waitAt(report, target).compareTo(target.maxWait()) <= 0;
    }

    /**
     * Checks that a report keeps the target's percentile.
     *
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
