package dev.hotspare.examples.fleet;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.autoscale.ScalingPolicy;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * A scaling policy written outside the library: keep a fixed buffer of READY rooms, whatever the load.
 * Trigger type {@code buffer}; the buffer size is the {@code delta} of the config's first {@code buffer}
 * trigger (default {@value #DEFAULT_BUFFER}).
 *
 * <p>Utilization is the buffer's shortfall, {@code (buffer − ready) / buffer}: 100% with no ready room, 0%
 * with exactly the buffer, negative with a surplus. So an up trigger with {@code usage: 1} fires when the
 * buffer is short, and a down trigger with {@code usage: 1} when it is full or over; the delta is always
 * {@code buffer − ready}. Registered through {@code META-INF/services/dev.hotspare.fleet.autoscale.ScalingPolicy}.
 */
// snippet: docs/autoscaling.md#6
public final class ReadyBufferPolicy implements ScalingPolicy {

    /** Buffer size when no buffer trigger sets a delta. */
    public static final int DEFAULT_BUFFER = 5;

    /** ServiceLoader needs a public no-argument constructor. */
    public ReadyBufferPolicy() {
    }

    @Override
    public String type() {
        return "buffer";
    }

    // the buffer's shortfall: 100% with no ready room, 0% with exactly the buffer, negative with a surplus
    @Override
    public Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
        int buffer = bufferSize(context.config());
        return Utilization.of(BigDecimal.valueOf((long) buffer - counts.ready())
                .divide(BigDecimal.valueOf(buffer), 18, RoundingMode.HALF_EVEN).stripTrailingZeros());
    }

    @Override
    public int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
        return bufferSize(context.config()) - counts.ready();
    }

    /** The buffer size configured in {@code config}. */
    public static int bufferSize(SchedulerConfig config) {
        return java.util.stream.Stream.concat(config.autoscaling().up().triggers().stream(),
                        config.autoscaling().down().triggers().stream())
                .filter(t -> t.type().equals("buffer"))
                .flatMap(t -> t.delta().stream())
                .findFirst().orElse(DEFAULT_BUFFER);
    }
}
// end snippet
