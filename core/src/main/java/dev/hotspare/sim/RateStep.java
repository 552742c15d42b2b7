package dev.hotspare.sim;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One step of a trace's true claim rate: from {@code from} on (until the next step) claims arrive at
 * {@code perHour}. Known for the built-in traces (they are generated from it), so a replay can score a policy that
 * knows the rate but not the arrivals.
 *
 * @param from    where the step starts
 * @param perHour claims per hour, not negative
 */
public record RateStep(Instant from, double perHour) {

    public RateStep {
        Objects.requireNonNull(from, "from");
        if (!(perHour >= 0) || Double.isInfinite(perHour)) {
            throw new IllegalArgumentException("perHour: bad value '" + perHour + "': must be a rate >= 0");
        }
    }

    /**
     * The rate at {@code at} of a step function, 0 before its first step.
     *
     * @param steps the steps, in time order
     * @return claims per hour
     */
    public static double rateAt(List<RateStep> steps, Instant at) {
        int lo = 0;
        int hi = steps.size() - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (!steps.get(mid).from().isAfter(at)) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found < 0 ? 0 : steps.get(found).perHour();
    }
}
