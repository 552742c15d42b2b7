package dev.hotspare.pool.sizing;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

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
