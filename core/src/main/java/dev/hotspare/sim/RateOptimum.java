package dev.hotspare.sim;

import dev.hotspare.pool.sizing.SizerSettings.WaitTarget;
import dev.hotspare.sim.ClaimTraces.RateStep;
import dev.hotspare.sim.PoolSimulation.AutoComparison;
import dev.hotspare.sim.PoolSimulation.CountChange;
import dev.hotspare.sim.PoolSimulation.SimulationReport;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * The cheapest running-count schedule that knows a trace's true rate but not its arrivals, by optimisation rather
 * than by a hand-picked family: time is cut into 5-minute slots; in a slot of rate {@code λ} with {@code k} spares
 * ready, a claim waits longer than the target when {@code k} or more claims arrived in the {@code resume - wait}
 * before it, so the slot costs {@code k × 5 min} of running spares and {@code λ × 5 min × P(Poisson(m) >= k)}
 * expected waits ({@code m} the rate integrated over that exposure). Minimising hours + price × expected waits is
 * separable per slot; sweeping the price walks a path of schedules from "no claim waits" to "no spares", one
 * decrement {@code k -> k - 1} of one slot at a time in order of hours saved per expected wait added (the
 * Lagrangian path, made fine-grained: slots whose decrements are worth exactly the same — a night hour is like every
 * other — are taken block by block in a fixed scrambled order of {@code block}s, so the budget's waits are spread
 * over nights without looking at where the arrivals fell). Each schedule raises a count one resume time before the
 * slot that needs it and lowers it at the slot's start. The position on the path is found by bisection on a
 * replay: the last schedule whose replayed percentile wait meets the target.
 *
 * <p>Package-private: a measuring tool for the bound {@link AutoComparison} prints, not an API.
 */
final class RateOptimum {

    /** The slot: the rate's steps are hours or 10-minute bursts, the resume time is minutes. */
    static final Duration SLOT = Duration.ofMinutes(5);
    /** A slot starts at the count whose exceedance is at most this (nobody realistically waits). */
    static final double START_EXCEEDANCE = 1e-4;

    /** One decrement: slot {@code slot} from {@code to + 1} to {@code to}, adding {@code waits} expected waits. */
    record Move(int slot, int to, double ratio, double waits, long tie) {
    }

    private final Instant start;
    private final int[] initial;
    private final List<Move> moves;
    private final Duration resume;

    private RateOptimum(Instant start, int[] initial, List<Move> moves, Duration resume) {
        this.start = start;
        this.initial = initial;
        this.moves = moves;
        this.resume = resume;
    }

    /**
     * The path for {@code rate} from {@code from} to {@code to}.
     *
     * @param block how many slots are taken together when their decrements are worth the same
     */
    static RateOptimum of(List<RateStep> rate, Instant from, Instant to, Duration resume, WaitTarget target, int max, int block) {
        double slotHours = SLOT.toMillis() / 3_600_000.0;
        long exposure = Math.max(0, resume.minus(target.maxWait()).toMillis());
        int slots = (int) Math.max(1, (Duration.between(from, to).toMillis() + SLOT.toMillis() - 1) / SLOT.toMillis());
        int[] initial = new int[slots];
        List<Move> moves = new ArrayList<>();
        for (int s = 0; s < slots; s++) {
            Instant mid = from.plus(SLOT.multipliedBy(s)).plus(SLOT.dividedBy(2));
            double claims = RateStep.rateAt(rate, mid) * slotHours;
            double mean = integral(rate, mid.minusMillis(exposure), mid);
            int k = exposure == 0 || claims == 0 ? 0 : Math.min(max, count(mean, START_EXCEEDANCE));
            initial[s] = k;
            double previous = Double.MAX_VALUE;
            long tie = scramble(s / block);
            for (int lower = k - 1; lower >= 0; lower--) {
                // P(N >= lower) - P(N >= lower + 1): the waits one spare fewer adds.
                double waits = claims * pmf(mean, lower);
                // Decrements of one slot are taken in order: a later one is never worth more than an earlier.
                double ratio = Math.min(previous, waits <= 0 ? Double.MAX_VALUE : slotHours / waits);
                previous = ratio;
                moves.add(new Move(s, lower, ratio, waits, tie));
            }
        }
        // Worth the same to 1e-9 relative: equal, so the scrambled block order decides.
        moves.sort(Comparator.comparingDouble((Move m) -> -Math.round(Math.log(m.ratio()) * 1e9) / 1e9)
                .thenComparingLong(Move::tie).thenComparingInt(Move::slot).thenComparingInt(m -> -m.to()));
        return new RateOptimum(from, initial, List.copyOf(moves), resume);
    }

    int size() {
        return moves.size();
    }

    /** The expected waits over the target after the first {@code n} moves (claims that wait for installs aside). */
    double expectedWaits(int n) {
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += moves.get(i).waits();
        }
        return sum;
    }

    /** The ready count per slot after the first {@code n} moves. */
    int[] counts(int n) {
        int[] k = initial.clone();
        for (int i = 0; i < n; i++) {
            Move m = moves.get(i);
            k[m.slot()] = Math.min(k[m.slot()], m.to());
        }
        return k;
    }

    /** The schedule after the first {@code n} moves: each count asked for a resume time before its slot. */
    List<CountChange> schedule(int n) {
        int[] k = counts(n);
        int ahead = (int) ((resume.toMillis() + SLOT.toMillis() - 1) / SLOT.toMillis());
        List<CountChange> out = new ArrayList<>();
        int last = -1;
        for (int s = 0; s < k.length; s++) {
            int asked = k[s];
            for (int j = 1; j <= ahead && s + j < k.length; j++) {
                asked = Math.max(asked, k[s + j]);
            }
            if (asked != last) {
                out.add(new CountChange(start.plus(SLOT.multipliedBy(s)).minus(s == 0 ? resume : Duration.ZERO), asked));
                last = asked;
            }
        }
        return out;
    }

    /** The result of a search: the position on the path, its schedule's run, and how many runs it took. */
    record Found(int moves, double expectedWaits, SimulationReport report, int replays) {
    }

    /**
     * The last position on the path whose replay ({@code replay}, given the schedule) meets {@code target}, by
     * bisection (the wait grows along the path; where it does not quite, the bisection keeps the cheaper of what it
     * saw that meets the target), or empty when not even the first schedule meets it.
     */
    Optional<Found> search(WaitTarget target, Function<List<CountChange>, SimulationReport> replay) {
        IntFunction<SimulationReport> run = n -> replay.apply(schedule(n));
        int lo = 0;
        SimulationReport first = run.apply(0);
        int replays = 1;
        if (!AutoComparison.meets(first, target)) {
            return Optional.empty();
        }
        Found best = new Found(0, 0, first, 1);
        int hi = moves.size() + 1; // hi: the first position known to miss (or past the end)
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            SimulationReport r = run.apply(mid);
            replays++;
            if (AutoComparison.meets(r, target)) {
                lo = mid;
                if (r.runningMemberHours() < best.report().runningMemberHours()) {
                    best = new Found(mid, expectedWaits(mid), r, replays);
                }
            } else {
                hi = mid;
            }
        }
        return Optional.of(new Found(best.moves(), best.expectedWaits(), best.report(), replays));
    }

    /** ∫ rate over [from, to), in claims. */
    static double integral(List<RateStep> rate, Instant from, Instant to) {
        double sum = 0;
        Instant t = from;
        while (t.isBefore(to)) {
            Instant next = to;
            for (RateStep step : rate) {
                if (step.from().isAfter(t)) {
                    if (step.from().isBefore(next)) {
                        next = step.from();
                    }
                    break;
                }
            }
            sum += RateStep.rateAt(rate, t) * Duration.between(t, next).toMillis() / 3_600_000.0;
            t = next;
        }
        return sum;
    }

    private static int count(double mean, double exceedance) {
        return dev.hotspare.pool.sizing.HotSpareSizer.poissonCount(mean, exceedance, 1000);
    }

    /** P(N = k), N ~ Poisson(mean). */
    static double pmf(double mean, int k) {
        if (mean <= 0) {
            return k == 0 ? 1 : 0;
        }
        double log = -mean + k * Math.log(mean);
        for (int i = 2; i <= k; i++) {
            log -= Math.log(i);
        }
        return Math.exp(log);
    }

    /** A fixed permutation-like scramble of block numbers (SplitMix64's finaliser): an order that favours no night. */
    private static long scramble(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
