package dev.hotspare.fleet.autoscale.internal;

import dev.hotspare.fleet.PolicyTypes;
import dev.hotspare.fleet.PolicyTypes.PolicyParameter;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.TargetPolicy;

import java.util.List;

/**
 * Maestro 10's {@code fixedBuffer}: {@code amount} rooms free above the taken ones (occupied and allocated), so
 * desired rooms = occupied + allocated + amount; rooms still starting count toward the buffer.
 */
public final class FixedBufferPolicy implements TargetPolicy {

    @Override
    public String type() {
        return TriggerTypes.FIXED_BUFFER;
    }

    @Override
    public List<PolicyParameter> parameters() {
        return PolicyTypes.FIXED_BUFFER_PARAMETERS;
    }

    @Override
    public Target target(RoomStatusCounts counts, PolicyParameters parameters, PolicyContext context) {
        int amount = parameters.whole("amount");
        int rooms = Math.addExact(counts.taken(), amount);
        return new Target(rooms, true, counts.taken() + " rooms taken + buffer " + amount + " = " + rooms + " rooms");
    }
}
