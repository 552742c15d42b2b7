package dev.hotspare.cli.plugin;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.autoscale.ScalingPolicy;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The {@code buffer} scaling policy of the examples ({@code dev.hotspare.examples.fleet.ReadyBufferPolicy}), copied
 * here as a plug-in on the CLI tests' class path: {@code hotspare validate} and {@code hotspare autoscale} must find
 * plug-in trigger types through ServiceLoader, and the CLI does not depend on the examples module.
 *
 * <p>Keeps a fixed buffer of READY rooms: utilization is the buffer's shortfall, {@code (buffer − ready) / buffer};
 * the buffer size is the {@code delta} of the config's first {@code buffer} trigger (default {@value #DEFAULT_BUFFER}),
 * and the delta is always {@code buffer − ready}.
 */
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
