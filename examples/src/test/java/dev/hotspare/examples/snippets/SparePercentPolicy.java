package dev.hotspare.examples.snippets;

import dev.hotspare.fleet.PolicyTypes.PolicyParameter;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.TargetPolicy;

import java.util.List;

/**
 * The target policy docs/autoscaling.md writes: free rooms in proportion to the taken ones ({@code percent} free
 * rooms per 100 taken, rounded up). {@code AutoscalingSnippetsTest} pins its numbers.
 */
// snippet: docs/autoscaling.md#3
public final class SparePercentPolicy implements TargetPolicy {
    public String type() { return "sparePercent"; }          // camel case is fine: a target policy keeps no history
    public List<PolicyParameter> parameters() { return List.of(PolicyParameter.whole("percent", "free rooms per 100 taken").atLeast(1)); }
    public Target target(RoomStatusCounts counts, PolicyParameters p, PolicyContext context) {
        int rooms = counts.taken() + (counts.taken() * p.whole("percent") + 99) / 100;   // rounded up
        return new Target(rooms, true, counts.taken() + " taken + " + p.whole("percent") + "% free");   // mayScaleDown: false holds a scale-down back
    }
}
// end snippet
