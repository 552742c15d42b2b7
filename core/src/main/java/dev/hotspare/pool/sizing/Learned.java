package dev.hotspare.pool.sizing;

import dev.hotspare.pool.sizing.SizingHistory.ClaimWait;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * What the sizer learns from its history, as pure functions of it: the seasonal profile of arrivals, over-dispersion
 * (bursts) and the error budget. Arrivals are epoch milliseconds, sorted.
 */
final class Learned {

    /** A daily profile needs a day of history; a weekly one a week. */
    static final Duration DAY = Duration.ofDays(1);
    static final Duration WEEK = Duration.ofDays(7);
    /** Half the width of the profile's window around an instant: 10 min each side smooths 5-minute noise. */
    static final Duration HALF_WIDTH = Duration.ofMinutes(30);
    /** How far back the error budget looks: the share of claims that waited too long is judged over a week. */
    static final Duration BUDGET_WINDOW = Duration.ofDays(7);
    /** The budget is only trusted once this many claims were served in its window. */
    static final int BUDGET_MIN_CLAIMS = 40;
    /** The share of the allowed waits the budget aims to spend (the rest is a margin for what it cannot foresee). */
    static final double BUDGET_AIM = 0.6;
    /** How strongly the price of a wait follows the budget: e^(GAIN x overspent share). */
    static final double BUDGET_GAIN = 4;
    /**
     * An overspend is judged in units of at least this many allowed waits: in the first days a window holds a
     * hundred or two claims and 5 to 10 allowed waits, and two misses more than aimed at there would multiply the
     * price by e^(4 x 2/5), about 5, for the rest of the week: spares at the peak and at night that the whole trace
     * did not need (on the diurnal trace, seeds 1-6: 50 running member-hours fewer with this floor, all meeting p95).
     */
    static final double BUDGET_MIN_ALLOWED = 20;
    /** Counts in 5-minute buckets vary this many times more than a Poisson count within the hour: bursts. */
    static final double BURSTY_DISPERSION = 2.5;
    /** How much the profile is shrunk toward the history's mean rate, in samples. */
    static final double PRIOR_WEIGHT = 0.25;
    /** Hourly counts vary this many times more than a Poisson count of their mean: demand follows the clock. */
    static final double SEASONAL_DISPERSION = 3;
    /** Bursts are judged on at least this many claims. */
    static final int BURST_MIN_CLAIMS = 8;

    private Learned() {
    }

    static long[] sortedMillis(List<Instant> arrivals) {
        long[] out = new long[arrivals.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = arrivals.get(i).toEpochMilli();
        }
        Arrays.sort(out);
        return out;
    }

    /** Arrivals in [from, to). */
    static int count(long[] sorted, long from, long to) {
        return lowerBound(sorted, to) - lowerBound(sorted, from);
    }

    private static int lowerBound(long[] sorted, long key) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The seasonal profile's expected claims in [from, to) (instants in the future or the past): the mean of the
     * same window one day earlier, two days earlier, … as far as the history reaches (the window must lie after
     * {@code since} and before {@code now}). Once a week is kept, only days of the same kind count (weekdays for a
     * weekday, Saturdays and Sundays for a weekend day): the weekly shape, with five or two samples a week instead
     * of one.
     *
     * @return the expected count, or -1 when no earlier period is in the history
     */
    static double expected(long[] sorted, long since, long now, long from, long to, java.time.ZoneId zone) {
        long day = DAY.toMillis();
        boolean weekly = (now - since) >= WEEK.toMillis();
        boolean weekend = weekend(from + (to - from) / 2, zone);
        double sum = 0;
        int samples = 0;
        for (long back = day; from - back >= since; back += day) {
            if (to - back > now || (weekly && weekend(from - back + (to - from) / 2, zone) != weekend)) {
                continue;
            }
            sum += count(sorted, from - back, to - back);
            samples++;
        }
        if (samples == 0) {
            return -1;
        }
        // Shrunk a little toward the history's mean rate: one day's count at an hour is noisy.
        double meanRate = count(sorted, since, now) / (double) Math.max(1, now - since);
        return (sum + PRIOR_WEIGHT * meanRate * (to - from)) / (samples + PRIOR_WEIGHT);
    }

    /** Whether {@code millis} falls on a Saturday or Sunday in {@code zone}. */
    static boolean weekend(long millis, java.time.ZoneId zone) {
        return Instant.ofEpochMilli(millis).atZone(zone).getDayOfWeek().getValue() >= 6;
    }

    /** The profile's rate (claims per second) around {@code at}, or -1 without a sample. */
    static double rateAround(long[] sorted, long since, long now, long at, java.time.ZoneId zone) {
        long half = HALF_WIDTH.toMillis();
        double e = expected(sorted, since, now, at - half, at + half, zone);
        return e < 0 ? -1 : e / (2 * half / 1000.0);
    }

    /**
     * Pooled within-hour index of dispersion of 5-minute counts over the history: about 1 for a Poisson process
     * whatever its hourly rate, far above it when claims come in bursts.
     *
     * @return the index, or 0 with too few claims
     */
    static double dispersion(long[] sorted, long since, long now) {
        long hour = Duration.ofHours(1).toMillis();
        long bucket = Duration.ofMinutes(5).toMillis();
        if (sorted.length < BURST_MIN_CLAIMS) {
            return 0;
        }
        double squares = 0;
        double expected = 0;
        long start = Math.max(since, sorted[0] - sorted[0] % hour);
        for (long h = start; h + hour <= now; h += hour) {
            int total = count(sorted, h, h + hour);
            if (total == 0) {
                continue;
            }
            double mean = total / 12.0;
            for (long b = h; b < h + hour; b += bucket) {
                double d = count(sorted, b, b + bucket) - mean;
                squares += d * d;
            }
            expected += 11 * mean;
        }
        return expected == 0 ? 0 : squares / expected;
    }

    /**
     * The index of dispersion of hourly counts over the history: about 1 for a flat Poisson process, large when the
     * rate follows the clock (or comes in bursts). A profile is only worth following when it is well above 1: on a
     * flat rate a day-old profile is only noise, and the recent windows know the rate better.
     *
     * @return the index, or 0 with fewer than 6 full hours
     */
    static double hourlyDispersion(long[] sorted, long since, long now) {
        long hour = Duration.ofHours(1).toMillis();
        int hours = (int) ((now - since) / hour);
        if (hours < 6) {
            return 0;
        }
        double sum = 0;
        double squares = 0;
        for (int h = 0; h < hours; h++) {
            int c = count(sorted, since + h * hour, since + (h + 1) * hour);
            sum += c;
            squares += (double) c * c;
        }
        double mean = sum / hours;
        double variance = squares / hours - mean * mean;
        return mean <= 0 ? 0 : variance / mean;
    }

    /**
     * The count that the history's own claims needed: claim j waits longer than the target when {@code k} or more
     * claims arrived in the exposed time before it, so the smallest {@code k} that at most {@code exceedance} of
     * the kept claims would have waited for (measured, not modelled: bursts count as they came).
     */
    static int measuredCount(long[] sorted, long exposureMillis, double exceedance, int cap) {
        if (sorted.length == 0 || exposureMillis <= 0) {
            return 0;
        }
        int[] before = new int[sorted.length];
        int lo = 0;
        for (int j = 0; j < sorted.length; j++) {
            while (sorted[lo] <= sorted[j] - exposureMillis) {
                lo++;
            }
            before[j] = j - lo;
        }
        Arrays.sort(before);
        int allowed = (int) Math.floor(exceedance * sorted.length);
        // k such that #{before >= k} <= allowed: k = before[n - allowed - 1] + 1
        int k = before[Math.max(0, sorted.length - allowed - 1)] + 1;
        return Math.min(cap, k);
    }

    /**
     * The error budget's state: over the budget window, how many claims were served and how many waited longer
     * than the target.
     */
    record Budget(int served, int missed, double exceedance) {

        static Budget of(List<ClaimWait> waits, Duration maxWait, double exceedance, Instant now) {
            Instant from = now.minus(BUDGET_WINDOW);
            int served = 0;
            int missed = 0;
            for (ClaimWait w : waits) {
                if (w.arrivedAt().isBefore(from) || w.arrivedAt().isAfter(now)) {
                    continue;
                }
                served++;
                if (w.waited().compareTo(maxWait) > 0) {
                    missed++;
                }
            }
            return new Budget(served, missed, exceedance);
        }

        boolean trusted() {
            return served >= BUDGET_MIN_CLAIMS;
        }

        /** Waits over the target allowed in the window. */
        double allowed() {
            return exceedance * served;
        }

        /**
         * How much of the aimed-at budget is overspent, in units of the allowed waits (at least
         * {@link #BUDGET_MIN_ALLOWED} of them when overspent; negative: unspent).
         */
        double overspent() {
            double over = missed - BUDGET_AIM * allowed();
            // Only an overspend is damped: an unspent budget's share stays what it was, so a steady signal without
            // misses keeps one price while the window fills.
            return over / Math.max(over > 0 ? BUDGET_MIN_ALLOWED : 1, allowed());
        }

        /** The factor the price of a wait is scaled by: higher after misses, lower while waits are unspent. */
        double factor() {
            return Math.max(1 / 16.0, Math.min(16, Math.exp(BUDGET_GAIN * overspent())));
        }
    }

    /**
     * The count minimising {@code k + price × ratePerHour × P(N >= k)}, {@code N ~ Poisson(mean)}: hot-spare hours
     * against waits over the target, each priced at {@code price} spare-hours. Where claims are rare a spare buys
     * few avoided waits, so the budget's waits are spent there.
     */
    static int lagrangian(double mean, double ratePerHour, double price, int cap) {
        double weight = price * ratePerHour;
        double best = Double.MAX_VALUE;
        int bestK = 0;
        double tail = 1; // P(N >= k)
        double logMean = mean > 0 ? Math.log(mean) : 0;
        double logPmf = -mean; // log P(N = k)
        for (int k = 0; k <= cap; k++) {
            double cost = k + weight * tail;
            if (cost < best - 1e-12) {
                best = cost;
                bestK = k;
            }
            if (mean <= 0 || weight * tail < 1e-9) {
                break; // no further spare can pay for itself
            }
            tail = Math.max(0, tail - Math.exp(logPmf));
            logPmf += logMean - Math.log(k + 1);
        }
        return bestK;
    }

    /**
     * The price of a wait at which, at the history's mean rate, the lagrangian count equals the quantile count:
     * the price at which that count starts being the cheapest.
     */
    static double basePrice(double meanRatePerHour, double exposureHours, double exceedance) {
        double mean = meanRatePerHour * exposureHours;
        if (mean <= 0) {
            return 0;
        }
        int k = Poisson.smallestCountWithTailAtMost(mean, exceedance, 1000);
        double below = tail(mean, k - 1) - tail(mean, k);
        double above = tail(mean, k) - tail(mean, k + 1);
        double low = below > 0 ? 1 / (meanRatePerHour * below) : 0;
        double high = above > 0 ? 1 / (meanRatePerHour * above) : low * 4;
        // The low end: the cheapest price at which the mean rate still gets the quantile's count; the budget's factor
        // raises it after misses.
        return low <= 0 ? high : low;
    }

    /** P(N >= k) for N ~ Poisson(mean). */
    static double tail(double mean, int k) {
        if (k <= 0) {
            return 1;
        }
        double logPmf = -mean;
        double cdf = 0;
        for (int n = 0; n < k; n++) {
            if (n > 0) {
                logPmf += Math.log(mean) - Math.log(n);
            }
            cdf += Math.exp(logPmf);
        }
        return Math.max(0, 1 - cdf);
    }
}
