package dev.hotspare.fleet.spi;

import java.math.BigDecimal;
import java.util.List;

/**
 * The autoscaler's points: one shared history per (scheduler, metric type), newest last, trimmed to what the
 * longest trigger window of that type needs. Implementations: in-memory and Redis; every implementation
 * passes {@code UsageHistoryContract} from hotspare-testkit. Points are exact decimals (a Redis
 * implementation stores their plain string form).
 */
public interface UsageHistory {

    /**
     * Appends {@code point} and trims the history to the newest {@code keep} points, in one step.
     *
     * @throws dev.hotspare.validation.ValidationException for a bad scheduler or metric name, or keep below 1
     */
    void record(String scheduler, String metric, BigDecimal point, int keep);

    /**
     * The newest {@code count} points (fewer if fewer exist), oldest first.
     *
     * @param count how many
     */
    List<BigDecimal> latest(String scheduler, String metric, int count);

    /**
     * Removes every point of {@code scheduler}.
     */
    void clear(String scheduler);
}
