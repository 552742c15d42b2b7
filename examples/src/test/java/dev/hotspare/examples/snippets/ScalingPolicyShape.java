package dev.hotspare.examples.snippets;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Utilization;

/**
 * The interface docs/autoscaling.md shows, as a copy (the real one's Javadoc and default methods are more than the
 * doc shows). {@link #asReal} makes the compiler hold the copy to the real {@code ScalingPolicy}: an abstract
 * method the copy lacks, or one whose signature differs, fails the build.
 */
final class ScalingPolicyShape {

    private ScalingPolicyShape() {
    }

    // snippet: docs/autoscaling.md#0
    public interface ScalingPolicy {
        String type();                                                             // "buffer": used in metricsTrigger[].type
        Utilization utilization(RoomStatusCounts counts, PolicyContext context);    // the current point
        int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context); // rooms to add (+) / remove (−)
    }
    // end snippet

    static dev.hotspare.fleet.autoscale.ScalingPolicy asReal(ScalingPolicy shown) {
        return new dev.hotspare.fleet.autoscale.ScalingPolicy() {
            @Override
            public String type() {
                return shown.type();
            }

            @Override
            public Utilization utilization(RoomStatusCounts counts, PolicyContext context) {
                return shown.utilization(counts, context);
            }

            @Override
            public int delta(MetricsTrigger trigger, RoomStatusCounts counts, PolicyContext context) {
                return shown.delta(trigger, counts, context);
            }
        };
    }
}
