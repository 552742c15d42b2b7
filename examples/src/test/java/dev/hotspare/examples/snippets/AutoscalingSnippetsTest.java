package dev.hotspare.examples.snippets;

import dev.hotspare.examples.fleet.ReadyBufferPolicy;
import dev.hotspare.fleet.PolicyTypes.PolicyParameters;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.ScalingPolicies;
import dev.hotspare.fleet.autoscale.ScalingPolicy.Direction;
import dev.hotspare.fleet.autoscale.ScalingPolicy.PolicyContext;
import dev.hotspare.fleet.autoscale.ScalingPolicy.TargetPolicy.Target;
import dev.hotspare.json.Documents;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The plug-ins docs/autoscaling.md writes register and compute what the doc says. */
class AutoscalingSnippetsTest {

    @Test
    void theDocsTargetPolicyKeepsItsPercentOfFreeRoomsRoundedUp() {
        SparePercentPolicy policy = new SparePercentPolicy();
        PolicyParameters p = PolicyParameters.of(policy.parameters(), Map.of("percent", 20));
        PolicyContext context = new PolicyContext(
                SchedulerConfigs.parse("name: pong\ngame: pong\nimage: pong:1\n", Documents.Format.YAML),
                Direction.UP, Map.of(), Instant.EPOCH);
        // 7 taken (6 occupied + 1 allocated): 20% of 7 is 1.4, so 2 free rooms
        Target target = policy.target(new RoomStatusCounts(0, 3, 6, 0, 1, 0, 0, 0), p, context);
        assertThat(target).isEqualTo(new Target(9, true, "7 taken + 20% free"));
    }

    @Test
    void bothPlugInsOfTheDocRegisterBesideTheBuiltIns() {
        ScalingPolicies policies = ScalingPolicies.builtIn().with(new ReadyBufferPolicy()).with(new SparePercentPolicy());
        assertThat(policies.typeNames()).contains("buffer", "sparePercent", "roomOccupancy", "fixedBuffer");
    }
}
