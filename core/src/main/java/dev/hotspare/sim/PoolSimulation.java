package dev.hotspare.sim;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolPlan;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision;
import dev.hotspare.pool.sizing.SizerSettings;
import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.pool.spi.MemberDriver.MemberEvent;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.ClaimTraces.RateStep;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import java.util.Set;
import java.util.Optional;
import java.math.BigDecimal;
import java.util.Comparator;
import java.util.Objects;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Replays a claim trace against a pool on virtual time, through the real {@link PoolController} and the
 * in-memory driver — the same code that runs in production, only the clock is simulated. A month of claims
 * takes well under a second per configuration.
 */
public final class PoolSimulation {

    private PoolSimulation() {
    }

    /**
     * Runs {@code trace} against {@code settings}. The pool starts empty and gets
     * {@code installTime + resumeTime + 10 min} to warm up before the first claim; measurement starts at the
     * first claim and ends at the last claim's arrival plus its hold, or later if claims are still waiting then
     * (by at most an install, a resume and an hour; claims unserved after that count with their wait so far).
     */
    public static SimulationReport run(SimulationSettings settings, List<ClaimArrival> trace) {
        return run(settings, trace, PoolListener.NONE);
    }

    /**
     * {@link #run(SimulationSettings, List)}, reporting the simulated pool's KPIs to {@code kpis} exactly as a
     * live {@link PoolController} does (it is one: the simulator runs the real controller with {@code kpis}
     * plugged in). The warm-up before the first claim is reported too (its creates and member states); waits
     * are in virtual time.
     */
    public static SimulationReport run(SimulationSettings settings, List<ClaimArrival> trace, PoolListener kpis) {
        return run(settings, trace, kpis, List.of());
    }

    /**
     * {@link #run(SimulationSettings, List)} with the static runningCount changed at the given instants (through
     * {@link PoolController#updateSpec}, as an operator's schedule would); the report's runningCount is the spec's
     * at the start.
     *
     * @param settings the pool (a fixed runningCount)
     * @param trace    the claims, at least one
     * @param schedule the changes, in any order
     * @return what the run measured
     */
    public static SimulationReport runScheduled(SimulationSettings settings, List<ClaimArrival> trace, List<CountChange> schedule) {
        return run(settings, trace, PoolListener.NONE, schedule);
    }

    private static SimulationReport run(SimulationSettings settings, List<ClaimArrival> trace, PoolListener kpis,
                                        List<CountChange> schedule) {
        if (trace.isEmpty()) {
            throw new IllegalArgumentException("trace: bad value '[]': needs at least one claim");
        }
        Instant measureFrom = trace.get(0).at();
        Instant warmStart = measureFrom.minus(settings.installTime()).minus(settings.resumeTime()).minus(Duration.ofMinutes(10));
        VirtualTimeScheduler time = new VirtualTimeScheduler(new VirtualClock(warmStart));
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(settings.installTime())
                .resumeTime(settings.resumeTime()).hibernateTime(settings.hibernateTime()).build();
        String pool = settings.spec().name();
        PowerMeter meter = new PowerMeter(measureFrom);
        driver.watch(pool, event -> meter.onEvent(event, time.now()));
        List<Duration> waits = new ArrayList<>();
        int[] served = new int[3];
        PoolController controller = PoolController.builder(settings.spec()).memberDriver(driver).claimStore(new InMemoryClaimStore())
                .scheduler(time).resyncPeriod(settings.resyncPeriod()).listener(kpis).build().start();

        for (CountChange change : schedule) {
            Duration after = Duration.between(warmStart, change.at());
            time.schedule(after.isNegative() ? Duration.ZERO : after, () -> controller.updateSpec(
                    controller.spec().toBuilder().runningCount(change.runningCount()).build()));
        }
        List<ClaimHandle> open = new ArrayList<>();
        Instant end = measureFrom;
        for (int i = 0; i < trace.size(); i++) {
            ClaimArrival arrival = trace.get(i);
            Instant releaseBy = arrival.at().plus(arrival.hold());
            if (releaseBy.isAfter(end)) {
                end = releaseBy;
            }
            String name = "claim-" + i;
            time.schedule(Duration.between(warmStart, arrival.at()), () -> {
                ClaimHandle handle = controller.claim(name);
                open.add(handle);
                handle.member().thenAccept(member -> {
                    Instant now = time.now();
                    waits.add(Duration.between(handle.createdAt(), now));
                    served[ClaimService.classify(member, handle.createdAt()).ordinal()]++;
                    open.remove(handle);
                    time.schedule(arrival.hold(), () -> controller.release(handle));
                });
            });
        }
        time.advanceTo(end);
        // Claims still waiting at the end get the time a pool would need to serve them from scratch.
        Instant cap = end.plus(settings.installTime()).plus(settings.resumeTime()).plus(Duration.ofHours(1));
        while (!open.isEmpty() && time.now().isBefore(cap)) {
            time.advanceBy(settings.resyncPeriod());
        }
        end = time.now();
        controller.close();
        for (ClaimHandle handle : open) {
            waits.add(Duration.between(handle.createdAt(), end));
        }
        meter.close(end);
        waits.sort(null);
        int servedCount = served[0] + served[1] + served[2];
        return new SimulationReport(settings.spec().runningCount(), trace.size(), servedCount,
                percentile(waits, 50), percentile(waits, 95), percentile(waits, 99), waits.get(waits.size() - 1),
                served[ClaimService.HOT.ordinal()], served[ClaimService.WARM.ordinal()], served[ClaimService.COLD.ordinal()],
                meter.runningHours(), meter.hibernatedHours());
    }

    /**
     * Runs the trace once per runningCount in {@code from..to}, calling {@code progress} after each.
     */
    public static List<SimulationReport> sweep(SimulationSettings settings, List<ClaimArrival> trace, int from, int to,
                                               IntConsumer progress) {
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("runningCount range: bad value '" + from + ".." + to + "': needs 0 <= from <= to");
        }
        List<SimulationReport> reports = new ArrayList<>();
        for (int running = from; running <= to; running++) {
            reports.add(run(settings.withRunningCount(running), trace));
            progress.accept(running - from + 1);
        }
        return reports;
    }

    /** Nearest-rank percentile of sorted {@code values}. */
    static Duration percentile(List<Duration> sorted, int p) {
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, rank - 1));
    }

    /** Integrates member-hours per power bucket from driver events, counting only time after {@code from}. */
    private static final class PowerMeter {
        private final Instant from;
        private final Map<String, Interval> open = new HashMap<>();
        private double runningSeconds;
        private double hibernatedSeconds;

        private record Interval(boolean running, boolean hibernated, Instant since) {
        }

        PowerMeter(Instant from) {
            this.from = from;
        }

        void onEvent(MemberEvent event, Instant now) {
            if (event instanceof MemberEvent.Added added) {
                closeAndOpen(added.member(), now);
            } else if (event instanceof MemberEvent.Updated updated) {
                closeAndOpen(updated.member(), now);
            } else if (event instanceof MemberEvent.Removed removed) {
                closeInterval(open.remove(removed.memberId()), now);
            }
        }

        private void closeAndOpen(Member member, Instant now) {
            closeInterval(open.remove(member.id()), now);
            boolean provisioning = member.phase() == MemberPhase.PROVISIONING;
            boolean deleting = member.phase() == MemberPhase.DELETING || member.phase() == MemberPhase.FAILED;
            ObservedPower power = member.observedPower();
            boolean running = !deleting && (provisioning || power == ObservedPower.RUNNING || power == ObservedPower.RESUMING
                    || power == ObservedPower.HIBERNATING_IN_PROGRESS);
            boolean hibernated = !deleting && !provisioning && power == ObservedPower.HIBERNATING;
            open.put(member.id(), new Interval(running, hibernated, now));
        }

        private void closeInterval(Interval interval, Instant now) {
            if (interval == null) {
                return;
            }
            Instant start = interval.since().isBefore(from) ? from : interval.since();
            if (!now.isAfter(start)) {
                return;
            }
            double seconds = Duration.between(start, now).toMillis() / 1000.0;
            if (interval.running()) {
                runningSeconds += seconds;
            } else if (interval.hibernated()) {
                hibernatedSeconds += seconds;
            }
        }

        void close(Instant end) {
            for (Interval interval : open.values()) {
                closeInterval(interval, end);
            }
            open.clear();
        }

        double runningHours() {
            return runningSeconds / 3600;
        }

        double hibernatedHours() {
            return hibernatedSeconds / 3600;
        }
    }

    /**
     * How to simulate a pool: its spec and how long the simulated backend takes for each transition.
     *
     * @param spec          the pool
     * @param installTime   how long creating a member takes
     * @param resumeTime    how long waking a hibernated member takes
     * @param hibernateTime how long hibernating takes
     * @param resyncPeriod  the controller's periodic reconcile
     */
    public record SimulationSettings(PoolSpec spec, Duration installTime, Duration resumeTime, Duration hibernateTime,
                                     Duration resyncPeriod) {

        public SimulationSettings {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(installTime, "installTime");
            Objects.requireNonNull(resumeTime, "resumeTime");
            Objects.requireNonNull(hibernateTime, "hibernateTime");
            Objects.requireNonNull(resyncPeriod, "resyncPeriod");
        }

        /**
         * The same settings with another, fixed runningCount (for sweeps); auto-sizing, if any, is dropped.
         *
         * @param runningCount the hot spares
         */
        public SimulationSettings withRunningCount(int runningCount) {
            return new SimulationSettings(spec.toBuilder().fixedRunningCount().runningCount(runningCount).build(), installTime,
                    resumeTime, hibernateTime, resyncPeriod);
        }

        /**
         * The same settings with the pool sizing its hot spares itself, starting from {@code sizing}'s min.
         *
         * @param sizing the sizer's settings
         */
        public SimulationSettings withAutoSizing(SizerSettings sizing) {
            return new SimulationSettings(spec.toBuilder().runningCount(sizing.min()).autoSizing(sizing).build(), installTime,
                    resumeTime, hibernateTime, resyncPeriod);
        }
    }

    /**
     * What one simulated run measured, from the first claim of the trace to its end.
     *
     * @param runningCount           the spec's runningCount
     * @param claims                 claims in the trace
     * @param served                 claims that got a member before the end
     * @param waitP50                median claim wait (unserved claims count with their wait so far)
     * @param waitP95                95th percentile wait
     * @param waitP99                99th percentile wait
     * @param waitMax                longest wait
     * @param servedHot              claims given a member that was already running when they arrived
     * @param servedWarm             claims that waited for an installed member to resume
     * @param servedCold             claims that waited for a member to be installed
     * @param runningMemberHours     member-hours spent provisioning, running, resuming or hibernating-in-progress
     * @param hibernatedMemberHours  member-hours spent hibernated
     */
    public record SimulationReport(int runningCount, int claims, int served, Duration waitP50, Duration waitP95,
                                   Duration waitP99, Duration waitMax, int servedHot, int servedWarm, int servedCold,
                                   double runningMemberHours, double hibernatedMemberHours) {

        /** Share of claims served hot, 0..1. */
        public double hotShare() {
            return claims == 0 ? 0 : (double) servedHot / claims;
        }
    }

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

    /**
     * A change of a replayed pool's static runningCount at an instant: a schedule an operator (or a policy that knows
     * the future) would set.
     *
     * @param at           when the count changes
     * @param runningCount the count from then on, not negative
     */
    public record CountChange(Instant at, int runningCount) {

        public CountChange {
            Objects.requireNonNull(at, "at");
            if (runningCount < 0) {
                throw new IllegalArgumentException("runningCount: bad value '" + runningCount + "': must not be negative");
            }
        }
    }
}
