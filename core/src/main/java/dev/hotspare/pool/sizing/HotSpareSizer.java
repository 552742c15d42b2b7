package dev.hotspare.pool.sizing;

import dev.hotspare.pool.sizing.SizerSettings.ScheduledOverride;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Sizes a pool's hot spares from demand and a wait target, instead of a number tuned by hand. Pure: a function of
 * (settings, observation); no I/O, no clock.
 *
 * <h2>The model</h2>
 * A claim takes a running member (a hot spare) and the pool at once resumes a hibernated member to refill the hot
 * set, oldest claim first. With {@code k} hot spares, the claim arriving at {@code t} is therefore served by the
 * refill the {@code k}-th claim before it started: it waits {@code max(0, t_{j-k} + R - t)}, where {@code R} is the
 * resume time. So it waits longer than {@code W} exactly when {@code k} or more claims arrived in the
 * {@code R - W} before it. With claims arriving as a Poisson process of rate {@code λ} (the forecast below), that
 * count is Poisson with mean {@code λ (R - W)}, and the sizer takes the smallest {@code k} with
 * {@code P(N >= k) <= 1 - percentile}. When {@code W >= R} no hot spare is needed. The same argument with the
 * install time {@code I} (a claimed member is replaced by a new install, which may then need resuming) gives the
 * recommended pool size: the smallest {@code s} with {@code P(Poisson(λ (I + R - W)) >= s) <= 1 - percentile}.
 *
 * <p>The rule of thumb {@code ceil(rate × install time)} is this model's mean; the model asks for the quantile
 * instead, because a pool sized on the mean makes about half its claims wait whenever demand is at its average.
 *
 * <h2>Assumptions and limits</h2>
 * Arrivals are Poisson at the forecast rate over one lead time (bursts beyond that are what the rising-demand term
 * and the short window are for); lead times are taken at a percentile of the measured ones (default the 90th), as
 * if fixed; refills start at once and in any number (a pool's {@code maxConcurrent} can delay them); the size is
 * planned with the full exceedance too, so a pool smaller than {@link SizingDecision#recommendedSize()} waits more
 * often for installs than the target says.
 *
 * <h2>Bounds</h2>
 * The modelled count is clamped to [min, max], then moves at most {@code maxStep} per decision; it may rise at any
 * time but falls only once {@code cooldown} has passed since the last change, so a constant signal settles and
 * stays. Scheduled overrides apply last.
 */
public final class HotSpareSizer {

    /** Sizes beyond this are reported as this (a pool of a hundred thousand unclaimed members is not a pool). */
    static final int SIZE_CAP = 100_000;

    private HotSpareSizer() {
    }

    /**
     * The decision for {@code in} under {@code settings}.
     *
     * @param settings the target, bounds and pace
     * @param in       what was observed
     */
    public static SizingDecision decide(SizerSettings settings, SizingInput in) {
        Optional<Duration> resume = leadTime(in.resumeTimes(), settings.leadTimePercentile()).or(settings::defaultResumeTime);
        Optional<Duration> install = leadTime(in.installTimes(), settings.leadTimePercentile()).or(settings::defaultInstallTime);
        int current = in.currentRunningCount();
        if (resume.isEmpty() || install.isEmpty()) {
            int kept = overridden(settings, in, clamp(current, settings)).count;
            return new SizingDecision(kept, current, kept != current, Math.max(kept, current),
                    new DemandForecast(0, 0, 0), resume.orElse(Duration.ZERO), install.orElse(Duration.ZERO),
                    Optional.empty(), "no " + (resume.isEmpty() ? "resume" : "install")
                    + " time measured yet and no default: keeping " + kept,
                    kept != current ? SizingDecision.Basis.OVERRIDE : SizingDecision.Basis.NO_LEAD_TIME);
        }
        Duration r = resume.get();
        Duration i = install.get();
        DemandForecast demand = DemandForecast.of(in.arrivals(), in.now(), settings.shortWindow(), settings.longWindow(), r);
        double epsilon = settings.target().exceedance();
        double w = seconds(settings.target().maxWait());
        double exposure = Math.max(0, seconds(r) - w);
        long now = in.now().toEpochMilli();
        SizingHistory history = in.history();
        long[] kept = Learned.sortedMillis(history.arrivals());
        long since = history.since().map(Instant::toEpochMilli).orElse(now);
        List<String> why = new ArrayList<>();

        // 1. The rate: the learned profile where it has a day of history and agrees with what is arriving, pre-warming
        // a resume time ahead of its ramps; otherwise the recent windows.
        double rate = demand.forecastRate();
        String source = String.format(Locale.ROOT, "%.2f claims/h recent (%.2f over %s)", rate * 3600,
                demand.longRate() * 3600, settings.longWindow());
        double seasonality = Learned.hourlyDispersion(kept, since, now);
        double dispersion = Learned.dispersion(kept, since, now);
        boolean bursty = dispersion > Learned.BURSTY_DISPERSION;
        if (history.span(in.now()).compareTo(Learned.DAY) >= 0 && !bursty) {
            long lw = settings.longWindow().toMillis();
            boolean seasonal = seasonality > Learned.SEASONAL_DISPERSION;
            // A flat history's profile is flat: its mean rate, known far better than from two hours of claims.
            double flat = Learned.count(kept, since, now + 1) / (double) Math.max(1, now - since);
            double expectedRecent = seasonal ? Learned.expected(kept, since, now, now - lw, now, settings.zone()) : flat * lw;
            int seenRecent = Learned.count(kept, now - lw, now + 1);
            double ahead = seasonal ? Math.max(Learned.rateAround(kept, since, now, now, settings.zone()),
                    Learned.rateAround(kept, since, now, now + r.toMillis(), settings.zone())) : flat * 1000;
            if (expectedRecent >= 0 && ahead >= 0) {
                boolean agrees = agrees(expectedRecent, seenRecent);
                if (agrees) {
                    // While the profile agrees with what arrives it is followed, down as well as up: what it cannot
                    // foresee makes it disagree, and then the recent windows take over.
                    rate = Math.max(ahead, 1 / seconds(settings.longWindow()) / 4);
                    source = String.format(Locale.ROOT, "%.2f claims/h from the %s profile (%.1f expected over the last %s, %d seen)",
                            rate * 3600, !seasonal ? "flat" : history.span(in.now()).compareTo(Learned.WEEK) >= 0 ? "weekday/weekend" : "daily",
                            expectedRecent, settings.longWindow(), seenRecent);
                } else if (seenRecent > expectedRecent) {
                    // More than the profile foresaw: at least what is arriving now, never less than the profile.
                    rate = Math.max(ahead, Math.max(demand.longRate(), demand.shortRate()));
                    source = String.format(Locale.ROOT, "%.2f claims/h: more than the profile's %.1f over the last %s came (%d)",
                            rate * 3600, expectedRecent, settings.longWindow(), seenRecent);
                } else {
                    source += String.format(Locale.ROOT, "; the profile expected %.1f claims over the last %s, %d came: not used",
                            expectedRecent, settings.longWindow(), seenRecent);
                }
            }
        }
        if (bursty) {
            // In bursts the rise is over before members resumed for it are ready: the count the bursts needed (below)
            // is held instead, and the rise is not extrapolated.
            rate = Math.max(demand.longRate(), 1 / seconds(settings.longWindow()));
            source = String.format(Locale.ROOT, "%.2f claims/h over %s (bursts are not extrapolated)", rate * 3600,
                    settings.longWindow());
        }
        why.add(source);
        double mean = rate * exposure;
        int quantile = Poisson.smallestCountWithTailAtMost(mean, epsilon, settings.max());
        int modelled = quantile;
        SizingDecision.Basis basis = SizingDecision.Basis.FORECAST;

        // 2. The error budget: once enough claims were served, waits are priced and spent where spares buy the fewest
        // avoided waits (troughs), more dearly after misses.
        Learned.Budget budget = Learned.Budget.of(history.waits(), settings.target().maxWait(), epsilon, in.now());
        if (budget.trusted() && exposure > 0) {
            long from = Math.max(since, now - Learned.BUDGET_WINDOW.toMillis());
            double hours = Math.max(1, (now - from) / 3_600_000.0);
            double meanPerHour = Learned.count(kept, from, now + 1) / hours;
            double price = Learned.basePrice(meanPerHour, exposure / 3600, epsilon) * budget.factor();
            int priced = Learned.lagrangian(mean, rate * 3600, price, settings.max());
            why.add(String.format(Locale.ROOT, "budget: %d of %d claims over %s in %s (%.1f allowed), a wait priced %.2f spare-h",
                    budget.missed(), budget.served(), settings.target().maxWait(), Learned.BUDGET_WINDOW, budget.allowed(), price));
            if (priced != modelled) {
                modelled = priced;
                basis = SizingDecision.Basis.BUDGET;
            }
        }

        // 3. Bursts: over-dispersed arrivals are not Poisson; hold the count the history's own claims needed.
        if (bursty) {
            int measured = Learned.measuredCount(kept, (long) (exposure * 1000), epsilon, settings.max());
            why.add(String.format(Locale.ROOT, "bursts: dispersion %.1f, the kept claims needed %d", dispersion, measured));
            if (measured > modelled) {
                modelled = measured;
                basis = SizingDecision.Basis.BURST;
            }
        }
        int size = Poisson.smallestCountWithTailAtMost(rate * (seconds(i) + seconds(r) - w), epsilon, SIZE_CAP);

        int wanted = clamp(modelled, settings);
        int stepped = current;
        boolean coolingDown = in.lastChangeAt().isPresent()
                && Duration.between(in.lastChangeAt().get(), in.now()).compareTo(settings.cooldown()) < 0;
        if (wanted > current) {
            stepped = Math.min(wanted, current + settings.maxStep());
        } else if (wanted < current && !coolingDown) {
            stepped = Math.max(wanted, current - settings.maxStep());
        }
        stepped = clamp(stepped, settings);
        Overridden result = overridden(settings, in, stepped);
        boolean held = wanted < current && coolingDown && stepped == current;
        if (result.by.isPresent()) {
            basis = SizingDecision.Basis.OVERRIDE;
        } else if (stepped != wanted) {
            basis = SizingDecision.Basis.PACE;
        } else if (wanted > modelled) {
            basis = SizingDecision.Basis.FLOOR;
        } else if (wanted < modelled) {
            basis = SizingDecision.Basis.CEILING;
        }
        String explanation = String.format(Locale.ROOT, "%s; resume %s, wait target %s: %s asks for %d%s%s",
                String.join("; ", why), r, settings.target(), basis.name().toLowerCase(Locale.ROOT), modelled,
                held ? ", held until the cooldown passes" : "",
                result.by.map(o -> ", overridden by '" + o.text() + "'").orElse(""));
        return new SizingDecision(result.count, modelled, result.count != current, Math.max(size, result.count), demand, r, i,
                result.by, explanation, basis);
    }

    /**
     * Whether {@code seen} claims are plausible under a Poisson count of mean {@code expected}: neither below its
     * 1st nor above its 99th percentile (a holiday, or a new team, makes the profile wrong).
     */
    static boolean agrees(double expected, int seen) {
        if (expected <= 0) {
            return seen <= 2;
        }
        int high = Poisson.smallestCountWithTailAtMost(expected, 0.01, 1_000_000);
        boolean tooFew = seen < high && Learned.tail(expected, seen + 1) > 0.99; // P(N <= seen) < 1%
        return seen <= high && !tooFew;
    }

    /**
     * The smallest count {@code k} with {@code P(N >= k) <= exceedance} for {@code N ~ Poisson(mean)}, at most
     * {@code cap + 1}: the model's count for a mean number of claims over the exposed part of a resume.
     *
     * @param mean       the mean, not negative
     * @param exceedance the share allowed to wait, in (0, 1)
     * @param cap        the largest count of interest
     */
    public static int poissonCount(double mean, double exceedance, int cap) {
        return Poisson.smallestCountWithTailAtMost(mean, exceedance, cap);
    }

    private record Overridden(int count, Optional<ScheduledOverride> by) {
    }

    private static Overridden overridden(SizerSettings settings, SizingInput in, int count) {
        int out = count;
        Optional<ScheduledOverride> by = Optional.empty();
        for (ScheduledOverride o : settings.overrides()) {
            if (o.isOpen(in.now(), settings.zone())) {
                int next = o.apply(out);
                if (next != out) {
                    by = Optional.of(o);
                }
                out = next;
            }
        }
        return new Overridden(out, by);
    }

    private static int clamp(int count, SizerSettings settings) {
        return Math.max(settings.min(), Math.min(settings.max(), count));
    }

    /** The {@code percentile}-th percentile of {@code samples} (nearest rank), if any were measured. */
    static Optional<Duration> leadTime(List<Duration> samples, BigDecimal percentile) {
        if (samples.isEmpty()) {
            return Optional.empty();
        }
        List<Duration> sorted = new ArrayList<>(samples);
        sorted.sort(null);
        int rank = percentile.movePointLeft(2).multiply(BigDecimal.valueOf(sorted.size()))
                .setScale(0, RoundingMode.CEILING).intValueExact();
        return Optional.of(sorted.get(Math.max(1, rank) - 1));
    }

    private static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }

    /**
     * What the sizer decided at one decision.
     *
     * @param runningCount     the running count to set (bounded, stepped, cooled down, overridden)
     * @param modelled         what the queueing model asks for, before any bound (may exceed max)
     * @param changed          whether {@code runningCount} differs from the current one
     * @param recommendedSize  the pool size the same model asks for (unclaimed members, hot and hibernated), at least
     *                         {@code runningCount}; a recommendation, applied only where the pool opts in
     * @param demand           the arrival rate planned for
     * @param resumeLeadTime   the resume time planned with
     * @param installLeadTime  the install time planned with
     * @param override         the scheduled override that set the count, if one did
     * @param explanation      one line for people and logs
     * @param basis            which part of the sizer set the count
     */
    public record SizingDecision(int runningCount, int modelled, boolean changed, int recommendedSize, DemandForecast demand,
                                 Duration resumeLeadTime, Duration installLeadTime, Optional<ScheduledOverride> override,
                                 String explanation, Basis basis) {

        /** Which part of the sizer set the count. */
        public enum Basis {
            /** The queueing model on the forecast rate (recent windows, or the learned daily or weekly profile). */
            FORECAST,
            /** The error budget: the model priced against the waits the target still allows (or after misses). */
            BUDGET,
            /** Bursts: arrivals are over-dispersed, and the count the history's own bursts needed is held. */
            BURST,
            /** The lower bound {@code min}. */
            FLOOR,
            /** The upper bound {@code max}. */
            CEILING,
            /** The pace: {@code maxStep} or the cooldown held the count short of what was asked. */
            PACE,
            /** A scheduled override. */
            OVERRIDE,
            /** No lead time is known yet: the count is kept. */
            NO_LEAD_TIME
        }
    }

    /**
     * The claim arrival rate the sizer plans for, from the arrivals of a short and a long recent window: the long
     * window's rate smooths noise, the short window's sees a rise early, and a rising demand is extrapolated over the
     * lead time (by the slope between the two windows' rates), because the members a rise needs must be started a
     * lead time before the claims arrive — once the short window holds clearly more claims than the long window's rate
     * explains (more than two standard deviations of a Poisson count, plus one), so that noise and a steady signal
     * never look like a rise. Without a rise the long window's rate is planned for (falling demand is not
     * extrapolated; the long window and the sizer's cooldown slow the way down), and a long window without any claim is
     * planned as one claim per long window, not as no demand at all.
     *
     * @param shortRate    claims per second over the short window
     * @param longRate     claims per second over the long window
     * @param forecastRate claims per second planned for: on a rise {@code max(longRate, shortRate + slope × (lead time +
     *                     short window / 2))}; otherwise {@code longRate}, or one claim per long window when it held none
     */
    public record DemandForecast(double shortRate, double longRate, double forecastRate) {

        /**
         * The forecast at {@code now}.
         *
         * @param arrivals    claim arrival instants (any order; those after {@code now} or before the long window are
         *                    ignored)
         * @param now         the decision's time
         * @param shortWindow the short window, shorter than {@code longWindow}
         * @param leadTime    how far ahead the members started now are needed
         */
        public static DemandForecast of(List<Instant> arrivals, Instant now, Duration shortWindow, Duration longWindow,
                                        Duration leadTime) {
            Instant shortStart = now.minus(shortWindow);
            Instant longStart = now.minus(longWindow);
            int inShort = 0;
            int inLong = 0;
            for (Instant at : arrivals) {
                if (at.isAfter(now)) {
                    continue;
                }
                if (at.isAfter(longStart)) {
                    inLong++;
                    if (at.isAfter(shortStart)) {
                        inShort++;
                    }
                }
            }
            double s = seconds(shortWindow);
            double l = seconds(longWindow);
            double shortRate = inShort / s;
            double longRate = inLong / l;
            // A rise is only extrapolated when the short window holds clearly more claims than the long window's rate
            // predicts (beyond two standard deviations of a Poisson count, plus one for where the window edges fall):
            // a steady signal never trips it, so the forecast of a steady rate is the rate, and grows with it.
            double expected = longRate * s;
            boolean rising = inShort - expected > 2 * Math.sqrt(expected) + 1;
            if (!rising) {
                // A steady (or falling) signal is planned at the long window's rate: the short window's count is
                // noisy, and planning for the larger of the two would size for every upward blip and then hold it
                // through the cooldown. A long window without a single claim does not show that no claim comes: it
                // is planned as if it held one, the rate at which seeing none is unremarkable, so a quiet night keeps
                // the spare its next claim needs.
                double planned = inLong == 0 ? 1 / l : longRate;
                return new DemandForecast(shortRate, longRate, planned);
            }
            // The windows' centres are (l - s) / 2 apart.
            double slope = (shortRate - longRate) / ((l - s) / 2);
            double forecast = Math.max(longRate, shortRate + slope * (seconds(leadTime) + s / 2));
            return new DemandForecast(shortRate, longRate, forecast);
        }

        /** Claims per hour planned for (for people and logs). */
        public double forecastPerHour() {
            return forecastRate * 3600;
        }

        private static double seconds(Duration d) {
            return d.toMillis() / 1000.0;
        }
    }

    /**
     * What the sizer observes of a pool at one decision.
     *
     * @param arrivals            recent claim arrival instants (at least the long window's)
     * @param resumeTimes         resume times measured on this pool's members (resume asked → running), newest last
     * @param installTimes        install times measured on this pool's members (created → installed), newest last
     * @param currentRunningCount the running count in force now
     * @param lastChangeAt        when the sizer last changed it, if ever
     * @param now                 the decision's time
     * @param history             the days of arrivals and waits the sizer learns from ({@link SizingHistory#NONE}: none)
     */
    public record SizingInput(List<Instant> arrivals, List<Duration> resumeTimes, List<Duration> installTimes,
                              int currentRunningCount, Optional<Instant> lastChangeAt, Instant now, SizingHistory history) {

        /**
         * An input without history: the sizer plans from the recent windows only.
         *
         * @param arrivals            recent claim arrival instants
         * @param resumeTimes         measured resume times
         * @param installTimes        measured install times
         * @param currentRunningCount the running count in force now
         * @param lastChangeAt        when the sizer last changed it
         * @param now                 the decision's time
         */
        public SizingInput(List<Instant> arrivals, List<Duration> resumeTimes, List<Duration> installTimes,
                           int currentRunningCount, Optional<Instant> lastChangeAt, Instant now) {
            this(arrivals, resumeTimes, installTimes, currentRunningCount, lastChangeAt, now, SizingHistory.NONE);
        }

        public SizingInput {
            arrivals = List.copyOf(arrivals);
            resumeTimes = List.copyOf(resumeTimes);
            installTimes = List.copyOf(installTimes);
            lastChangeAt = Objects.requireNonNullElse(lastChangeAt, Optional.empty());
            Objects.requireNonNull(now, "now");
            history = Objects.requireNonNullElse(history, SizingHistory.NONE);
            if (currentRunningCount < 0) {
                throw new IllegalArgumentException("currentRunningCount: bad value '" + currentRunningCount + "': must not be negative");
            }
        }
    }
}
