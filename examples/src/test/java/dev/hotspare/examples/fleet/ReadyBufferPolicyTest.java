package dev.hotspare.examples.fleet;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerConfig.ScalingSpec;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.FleetSnapshot;
import dev.hotspare.fleet.autoscale.Autoscaler.ScaleDecision;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ScalingPolicies;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ReadyBufferPolicyTest {

    @Test
    void serviceLoaderFindsThePolicyFromOutsideTheLibrary() {
        ScalingPolicies loaded = ScalingPolicies.loaded();
        assertThat(loaded.get("buffer")).get().isInstanceOf(ReadyBufferPolicy.class);
        assertThat(loaded.typeNames()).contains("room", "cpu", "mem", "legacy", "buffer");
        assertThat(ScalingPolicies.builtIn().get("buffer")).as("not a built-in").isEmpty();
    }

    @Test
    void configsUsingItValidateOnlyWhenItIsRegistered() {
        SchedulerConfig c = config();
        assertThat(c.validate()).singleElement().satisfies(p -> assertThat(p.message()).contains("unknown trigger type"));
        assertThat(c.validate(ScalingPolicies.loaded().typeNames())).isEmpty();
    }

    @Test
    void topsTheBufferUp() {
        Autoscaler autoscaler = Autoscaler.builder().policies(ScalingPolicies.loaded()).build();
        UsageWindows shortfall = new UsageWindows(Map.of("buffer", List.of(new BigDecimal("0.5"))));
        ScaleDecision d = autoscaler.decide(config(), FleetSnapshot.of(RoomStatusCounts.of(0, 1, 10)), shortfall,
                SchedulerState.IN_SYNC, Optional.empty(), Instant.EPOCH);
        assertThat(d.reason()).isEqualTo(ScaleDecision.Reason.TRIGGER);
        assertThat(d.delta()).isEqualTo(3);
    }

    private static SchedulerConfig config() {
        MetricsTrigger buffer = MetricsTrigger.of("buffer", 1, 50, 10).withDelta(4);
        return SchedulerConfig.of("buffered", "g", "img",
                new Autoscaling(0, 0, ScalingSpec.of(0, buffer), ScalingSpec.NONE, false));
    }
}
