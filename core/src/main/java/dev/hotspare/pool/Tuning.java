package dev.hotspare.pool;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * The usual starting point for tuning {@code runningCount}: {@code round_up(claim frequency × install time)}.
 * {@code hotspare simulate} refines it against a real or Poisson claim trace.
 */
public final class Tuning {

    private Tuning() {
    }

    /**
     * @param claimsPerMinute average claim arrival rate
     * @param installTime     how long creating a member takes
     * @return the suggested runningCount
     */
    public static int suggestedRunningCount(double claimsPerMinute, Duration installTime) {
        if (claimsPerMinute < 0 || Double.isNaN(claimsPerMinute)) {
            throw new IllegalArgumentException("claimsPerMinute: bad value '" + claimsPerMinute + "': must be >= 0");
        }
        // Exact decimal arithmetic, so 1/15 × 40 does not become 2.6666…7 and round up wrongly at boundaries.
        BigDecimal minutes = BigDecimal.valueOf(installTime.toSeconds()).divide(BigDecimal.valueOf(60), 6, RoundingMode.HALF_UP);
        BigDecimal product = new BigDecimal(Double.toString(claimsPerMinute)).multiply(minutes).setScale(6, RoundingMode.HALF_UP);
        return product.setScale(0, RoundingMode.CEILING).intValueExact();
    }
}
