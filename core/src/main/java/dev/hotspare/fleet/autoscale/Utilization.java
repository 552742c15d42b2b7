package dev.hotspare.fleet.autoscale;

import java.math.BigDecimal;

/**
 * A policy's current utilization: a value (a fraction, 1 = 100%; cpu and mem may exceed 1), undefined
 * (no rooms, so no share of them is occupied — no trigger of that type fires), or unavailable (the usage
 * source could not answer — the autoscaler then decides nothing).
 */
public sealed interface Utilization {

    /**
     * A measured utilization.
     *
     * @param fraction 0.75 for 75%
     */
    record Value(BigDecimal fraction) implements Utilization {
        public Value {
            if (fraction == null) {
                throw new IllegalArgumentException("fraction is required");
            }
        }

        /**
         * Whether {@code fraction × 100 > percent}. Exact.
         */
        public boolean above(int percent) {
            return fraction.movePointRight(2).compareTo(BigDecimal.valueOf(percent)) > 0;
        }

        /**
         * Whether {@code fraction × 100 < percent}. Exact.
         */
        public boolean below(int percent) {
            return fraction.movePointRight(2).compareTo(BigDecimal.valueOf(percent)) < 0;
        }

        /**
         * Whether {@code fraction × 100 >= percent}. Exact.
         */
        public boolean atLeast(int percent) {
            return !below(percent);
        }
    }

    /**
     * No utilization exists (e.g. no rooms at all); not an error.
     *
     * @param why for the decision's explanation
     */
    record Undefined(String why) implements Utilization {
    }

    /**
     * The source could not answer; the autoscaler decides nothing rather than guess.
     *
     * @param why for the decision's explanation
     */
    record Unavailable(String why) implements Utilization {
    }

    /**
     * A value of {@code fraction}.
     *
     * @param fraction 0.75 for 75%
     */
    static Utilization of(BigDecimal fraction) {
        return new Value(fraction);
    }
}
