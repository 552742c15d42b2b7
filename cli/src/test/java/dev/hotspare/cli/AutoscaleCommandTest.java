package dev.hotspare.cli;

import tools.jackson.databind.JsonNode;
import dev.hotspare.json.Documents;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.hotspare.cli.CliRun.resource;
import static org.assertj.core.api.Assertions.assertThat;

class AutoscaleCommandTest {

    private static List<JsonNode> decisions(CliRun run) {
        return run.outLines().stream().map(line -> {
            try {
                return Documents.jsonReader().readTree(line);
            } catch (Exception e) {
                throw new AssertionError("not a JSON line: " + line, e);
            }
        }).toList();
    }

    @Test
    void replaysRoomTicksOneJsonDecisionPerLine() {
        CliRun run = CliRun.run("autoscale", "--config", resource("room.yaml"), "--ticks", resource("room-ticks.json"));
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> d = decisions(run);
        assertThat(d).hasSize(7);
        assertThat(d).extracting(n -> n.get("reason").asString())
                .containsExactly("NONE", "LIMIT", "NONE", "NONE", "NONE", "LIMIT", "NONE");
        assertThat(d).extracting(n -> n.get("delta").asInt()).containsExactly(0, 3, 0, 0, 0, 3, 0);
        assertThat(d.get(0).get("time").asString()).isEqualTo("2026-01-01T00:00:00Z");
        assertThat(d.get(0).get("state").asString()).isEqualTo("in-sync");
        assertThat(d.get(1).get("trigger").asString()).isEqualTo("up[0] (room)");
        assertThat(d.get(4).get("heldByCooldown").asBoolean()).as("30 s after the scale, cooldown 30 s").isTrue();
        assertThat(d.get(4).get("state").asString()).isEqualTo("subdimensioned");
        assertThat(d.get(6).get("state").asString()).isEqualTo("terminating");
        assertThat(d.get(6).get("explanation").asString()).isEqualTo("scheduler is terminating");
    }

    @Test
    void customPolicyFromTheClassPathIsUsed() {
        CliRun run = CliRun.run("autoscale", "--config", resource("buffer.yaml"), "--ticks", resource("buffer-ticks.json"));
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<JsonNode> d = decisions(run);
        assertThat(d).extracting(n -> n.get("delta").asInt()).containsExactly(0, 2, 0, 0, -4);
        assertThat(d.get(1).get("trigger").asString()).isEqualTo("up[0] (buffer)");
        assertThat(d.get(3).get("heldByCooldown").asBoolean()).isTrue();
    }

    @Test
    void metricsUnavailableIsReportedNotGuessed() {
        CliRun run = CliRun.run("autoscale", "--config", resource("maestro-example.yaml"), "--ticks", resource("room-ticks.json"));
        assertThat(run.exitCode()).isZero();
        JsonNode first = decisions(run).get(0);
        assertThat(first.get("reason").asString()).as("10 rooms < min 100").isEqualTo("BELOW_MIN");
        assertThat(first.get("delta").asInt()).isEqualTo(90);
    }

    @Test
    void badTicksAreProblemsWithPaths() {
        CliRun unknown = CliRun.run("autoscale", "--config", resource("room.yaml"), "--ticks", resource("bad-ticks.json"));
        assertThat(unknown.exitCode()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(unknown.err()).contains("cpuu").contains("did you mean 'cpu'?");

        CliRun unordered = CliRun.run("autoscale", "--config", resource("room.yaml"), "--ticks", resource("unordered-ticks.json"));
        assertThat(unordered.exitCode()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(unordered.err()).contains("[0].rooms.ready: bad value '-1'")
                .contains("[1].time: bad value '2026-01-01T00:00:00Z': ticks must be in time order")
                .contains("[1].mem: bad value '-5'");
        assertThat(unordered.out()).isEmpty();
    }

    @Test
    void invalidConfigIsBadInput() {
        CliRun run = CliRun.run("autoscale", "--config", resource("planted-mistakes.yaml"), "--ticks", resource("room-ticks.json"));
        assertThat(run.exitCode()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.err().lines()).hasSize(12);
    }
}
