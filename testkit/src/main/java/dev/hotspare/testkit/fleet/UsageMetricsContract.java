package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.spi.UsageMetrics;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract every {@link UsageMetrics} passes: a scheduler without data answers unavailable (never
 * throws, never zero), and usage prepared through the backend comes back as used against requested.
 */
public abstract class UsageMetricsContract {

    /**
     * A metrics source for the tests.
     */
    protected abstract UsageMetrics newMetrics();

    /**
     * Makes the backend report {@code used} of {@code requested} for {@code metric} of {@code scheduler}
     * (e.g. create pods with requests and push usage into a mock metrics API).
     */
    protected abstract void prepare(UsageMetrics metrics, String scheduler, ResourceMetric metric,
                                    BigDecimal used, BigDecimal requested);

    @Test
    void unknownSchedulerIsUnavailableNotZero() {
        UsageMetrics metrics = newMetrics();
        for (ResourceMetric m : ResourceMetric.values()) {
            assertThat(metrics.usage("nobody-here", m)).isInstanceOf(UsageReading.Unavailable.class);
        }
    }

    @Test
    void preparedUsageComesBackAgainstRequests() {
        UsageMetrics metrics = newMetrics();
        prepare(metrics, "metered", ResourceMetric.CPU, new BigDecimal("1.5"), new BigDecimal("2"));
        UsageReading reading = metrics.usage("metered", ResourceMetric.CPU);
        assertThat(reading).isInstanceOfSatisfying(UsageReading.Available.class,
                a -> assertThat(a.utilization()).isEqualByComparingTo("0.75"));
        assertThat(metrics.usage("metered", ResourceMetric.MEM)).isInstanceOf(UsageReading.Unavailable.class);
    }
}
