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
 * never look like a rise. Falling demand is not extrapolated: the sizer then plans for the recent rate, and its
 * cooldown slows the way down.
 *
 * @param shortRate    claims per second over the short window
 * @param longRate     claims per second over the long window
 * @param forecastRate claims per second planned for: {@code max(longRate, shortRate + rising slope × (lead time +
 *                     short window / 2))}
 */
public record DemandForecast(double shortRate, double longRate, double forecastRate) {

    /**
     * The forecast at {@code now}.
     *
     * @param arrivals    claim arrival instants (any order; those after {@code now} or before the long window are
     *                    ignored)
     * @param now         the decision's time
     * @param shortWindow the short window, shorter than {@code longWindow}
     * @param longWindow  the long window
     * @param leadTime    how far ahead the members started now are needed
     * @return the forecast
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
        // The windows' centres are (l - s) / 2 apart.
        double slope = rising ? (shortRate - longRate) / ((l - s) / 2) : 0;
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
