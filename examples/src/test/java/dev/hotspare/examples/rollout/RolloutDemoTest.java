package dev.hotspare.examples.rollout;

import dev.hotspare.rollout.RolloutState.Phase;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class RolloutDemoTest {

    @Test
    void theDemoSurvivesItsCrashAndUpgradesEveryHealthyDevice() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        RolloutDemo.Result result = RolloutDemo.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);

        assertThat(result.phase()).as(out).isEqualTo(Phase.SUCCEEDED);
        assertThat(result.crashes()).isEqualTo(1);
        assertThat(result.upgradedDevices()).isEqualTo(39);
        assertThat(result.failedDevices()).isEqualTo(1);
        assertThat(result.maxExecutionsPerOp()).as("agents never ran an op id twice").isEqualTo(1);
        assertThat(out).contains("controller process crashed", "new controller re-issues 4 in-flight op(s)", "node-1 won the election",
                "device group 1 (tier=canary) finished", "device group 3 (tier=core) finished", "retry at",
                "failed: device/nic-33");
    }
}
