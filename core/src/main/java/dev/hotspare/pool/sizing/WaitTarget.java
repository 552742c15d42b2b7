package dev.hotspare.pool.sizing;

import dev.hotspare.validation.Durations;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A claim-wait target: the {@code percentile}-th percentile of claim waits is at most {@code maxWait}, written
 * {@code p95 <= PT30S} (also {@code p95<=30s}, {@code p99.9 = 2m}).
 *
 * @param percentile in (0, 100), e.g. 95
 * @param maxWait    the wait that percentile may reach, not negative
 */
public record WaitTarget(BigDecimal percentile, Duration maxWait) {

    private static final Pattern TEXT = Pattern.compile("p(\\d{1,2}(?:\\.\\d{1,4})?)\\s*(?:<=|=)\\s*(\\S+)");

    public WaitTarget {
        Objects.requireNonNull(percentile, "percentile");
        Objects.requireNonNull(maxWait, "maxWait");
        if (percentile.signum() <= 0 || percentile.compareTo(BigDecimal.valueOf(100)) >= 0) {
            throw new ValidationException(Problem.of("targetWait.percentile", percentile.toPlainString(),
                    "must be between 0 and 100, exclusive"));
        }
        if (maxWait.isNegative()) {
            throw new ValidationException(Problem.of("targetWait.maxWait", maxWait, "must not be negative"));
        }
    }

    /**
     * Reads {@code p95 <= PT30S}.
     *
     * @param field what the text is for, named in errors (e.g. {@code runningCount.targetWait} or {@code --auto})
     * @param text  the target as written
     * @return the target
     * @throws ValidationException naming the field and the bad value
     */
    public static WaitTarget parse(String field, String text) {
        Matcher m = TEXT.matcher(text == null ? "" : text.strip());
        if (!m.matches()) {
            throw new ValidationException(Problem.of(field, text == null ? Problem.MISSING : text,
                    "expected a wait target such as p95 <= PT30S or p99=2m"));
        }
        return new WaitTarget(new BigDecimal(m.group(1)), Durations.parse(field, m.group(2)));
    }

    /** The share of claims allowed to wait longer than {@link #maxWait()}: {@code 1 - percentile / 100}. */
    public double exceedance() {
        return BigDecimal.ONE.subtract(percentile.movePointLeft(2)).doubleValue();
    }

    @Override
    public String toString() {
        return "p" + percentile.stripTrailingZeros().toPlainString() + " <= " + maxWait;
    }
}
