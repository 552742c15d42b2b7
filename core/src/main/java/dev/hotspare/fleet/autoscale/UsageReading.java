package dev.hotspare.fleet.autoscale;

import dev.hotspare.fleet.spi.UsageMetrics;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * One answer from {@link UsageMetrics}: either the summed usage and summed requests of a scheduler's rooms,
 * or "unavailable" with a reason (metrics API down, no pods reporting yet). The autoscaler never guesses
 * on an unavailable reading.
 */
public sealed interface UsageReading {

    /**
     * Decimal places of a utilization that does not terminate (e.g. 1/3). Never flips a comparison with a whole
     * percent for fewer than 10^16 rooms, and keeps values below 9.2 (920%) in a compact (long) BigDecimal.
     */
    int UTILIZATION_SCALE = 18;

    /**
     * Usage against requests.
     *
     * @param used      summed usage, in base units
     * @param requested summed requests, in the same units, positive
     */
    record Available(BigDecimal used, BigDecimal requested) implements UsageReading {
        public Available {
            if (used == null || requested == null || requested.signum() <= 0 || used.signum() < 0) {
                throw new IllegalArgumentException("usage needs used >= 0 and requested > 0, got " + used + " / " + requested);
            }
        }

        /**
         * used / requested as a fraction (1 = 100%), exact when it terminates within {@link #UTILIZATION_SCALE} places.
         *
         * @return used / requested as a fraction (1 = 100%), exact when it terminates within {@link
         *         #UTILIZATION_SCALE} places
         */
        public BigDecimal utilization() {
            return used.divide(requested, UTILIZATION_SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
        }
    }

    /**
     * No answer.
     *
     * @param reason why, for the decision's explanation
     */
    record Unavailable(String reason) implements UsageReading {
        public Unavailable {
            reason = reason == null || reason.isBlank() ? "no reading" : reason;
        }
    }

    /**
     * Convenience factory.
     *
     * @param used summed usage, in base units
     * @param requested summed requests, in the same units, positive
     */
    static UsageReading of(BigDecimal used, BigDecimal requested) {
        return new Available(used, requested);
    }

    /**
     * Convenience factory.
     *
     * @param reason why, for the decision's explanation
     */
    static UsageReading unavailable(String reason) {
        return new Unavailable(reason);
    }
}
