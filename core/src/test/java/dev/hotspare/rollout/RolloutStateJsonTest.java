package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutState.RolloutStateJson;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RolloutStateJsonTest {

    @Test
    void aStateMidRolloutRoundTripsExactly() {
        RolloutSpec spec = RolloutSpec.builder("r1", "2.0").deviceGroup("tier", "canary").prechecks(true)
                .retry(2, Duration.ofMinutes(1)).maxFailures(2)
                .window(MaintenanceWindow.between(MachineDriver.T0, MachineDriver.T0.plus(Duration.ofHours(8)))).build();
        MachineDriver d = new MachineDriver(spec, MachineDriver.inventory(2, Map.of("canary", 3)));
        d.feed(new RolloutEvent.LeaderChanged(Optional.of("node-1")));
        d.feed(new RolloutEvent.Start());
        d.succeed("node-1");
        d.fail("node-2");
        String json = RolloutStateJson.write(d.state);
        assertThat(json).startsWith("{\"formatVersion\":1,");
        assertThat(RolloutStateJson.read(json)).isEqualTo(d.state);
        RolloutState initial = RolloutMachine.initial(spec, MachineDriver.inventory(1, Map.of()));
        assertThat(RolloutStateJson.read(RolloutStateJson.write(initial))).isEqualTo(initial);
    }

    @Test
    void anotherFormatVersionIsRefusedByName() {
        RolloutState s = RolloutMachine.initial(RolloutSpec.builder("r1", "2.0").build(), Inventory.of());
        String json = RolloutStateJson.write(s).replace("\"formatVersion\":1", "\"formatVersion\":9");
        assertThatThrownBy(() -> RolloutStateJson.read(json)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("formatVersion: bad value '9'");
    }
}
