package dev.hotspare.fleet.autoscale.internal;

import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.autoscale.ScalingPolicy;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;
import dev.hotspare.fleet.autoscale.UsageReading;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code room}: utilization is occupied / A (A = creating + ready + occupied), undefined when A = 0. The
 * delta solves {@code occupied / (A + delta) = usage / 100}, rounded half away from zero, in integers:
 * {@code delta = round((occupied·100 − usage·A) / usage)}.
 */
public final class RoomPolicy implements ScalingPolicy {

    @Override
    public String type() {
        return TriggerTypes.ROOM;
    }

    @Override
    public Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
        return occupancy(counts);
    }

    @Override
    public int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
        return roomDelta(counts.occupied(), counts.active(), trigger.usage());
    }

    /** occupied / A, undefined for A = 0. */
    public static Utilization occupancy(RoomStatusCounts counts) {
        int a = counts.active();
        if (a == 0) {
            return new Utilization.Undefined("no rooms (creating + ready + occupied = 0)");
        }
        return Utilization.of(BigDecimal.valueOf(counts.occupied())
                .divide(BigDecimal.valueOf(a), UsageReading.UTILIZATION_SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros());
    }

    /**
     * round half away from zero of (occupied·100 − usage·A) / usage, exactly.
     */
    public static int roomDelta(int occupied, int active, int usage) {
        if (usage <= 0) {
            throw new IllegalArgumentException("usage must be positive, was " + usage);
        }
        long numerator = (long) occupied * 100 - (long) usage * active;
        long magnitude = (2 * Math.abs(numerator) + usage) / (2L * usage);
        return Math.toIntExact(numerator < 0 ? -magnitude : magnitude);
    }
}
