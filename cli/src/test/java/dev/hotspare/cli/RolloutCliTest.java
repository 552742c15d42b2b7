package dev.hotspare.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hotspare.json.Documents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RolloutCliTest {

    private static final Path EXAMPLES = Path.of("../examples/rollout");
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @TempDir
    Path dir;

    @BeforeEach
    void capture() {
        originalOut = System.out;
        originalErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setErr(originalErr);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void planPrintsAHumanTable() {
        int status = HotspareCli.run("rollout", "plan", "--spec", EXAMPLES.resolve("spec.yaml").toString(),
                "--inventory", EXAMPLES.resolve("inventory.json").toString());
        assertThat(status).as(err()).isZero();
        assertThat(out()).contains("rollout edge-2026-01 -> version 2.1.0", "nodes", "node-a node-b",
                "group 2: tier=edge", "nic-02 | nic-03", "device/nic-04: already at version 2.1.0", "window:               FITS");
    }

    @Test
    void rolloutHelpListsItsSubcommands() {
        assertThat(HotspareCli.run("rollout", "--help")).isZero();
        assertThat(out()).contains("plan", "replay");
    }

    @Test
    void planPrintsJson() throws IOException {
        int status = HotspareCli.run("rollout", "plan", "--json", "--spec", EXAMPLES.resolve("spec.yaml").toString(),
                "--inventory", EXAMPLES.resolve("inventory.json").toString());
        assertThat(status).isZero();
        JsonNode plan = Documents.jsonReader().readTree(out());
        assertThat(plan.get("rollout").asText()).isEqualTo("edge-2026-01");
        assertThat(plan.get("stages")).extracting(s -> s.get("kind").asText())
                .containsExactly("WAIT_FOR_WINDOW", "NODES", "SERVICES", "DEVICE_GROUP", "DEVICE_GROUP", "DEVICE_GROUP");
        assertThat(plan.get("windowFit").asText()).isEqualTo("FITS");
    }

    @Test
    void badInputExitsTwoWithOneLinePerProblemFromBothFiles() throws IOException {
        Path spec = Files.writeString(dir.resolve("spec.json"), "{\"name\": \"Bad Name\", \"targetVersion\": \"2\", \"maxParallel\": 0}");
        Path inventory = Files.writeString(dir.resolve("inv.json"), "{\"targets\": [{\"kind\": \"ROUTER\", \"name\": \"x\", \"version\": \"1\"}]}");
        int status = HotspareCli.run("rollout", "plan", "--spec", spec.toString(), "--inventory", inventory.toString());
        assertThat(status).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(err().lines()).containsExactlyInAnyOrder(
                "error: " + spec + ": name: bad value 'Bad Name': must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit",
                "error: " + spec + ": maxParallel: bad value '0': must be between 1 and 10000",
                "error: " + inventory + ": targets[0].kind: bad value 'ROUTER': expected one of NODE, SERVICES, DEVICE");
        assertThat(err()).doesNotContain("Exception");
    }

    @Test
    void aMissingFileIsOneProblem() {
        int status = HotspareCli.run("rollout", "plan", "--spec", dir.resolve("nope.yaml").toString(),
                "--inventory", EXAMPLES.resolve("inventory.json").toString());
        assertThat(status).isEqualTo(2);
        assertThat(err().strip()).isEqualTo("error: " + dir.resolve("nope.yaml") + ": (document): bad value '"
                + dir.resolve("nope.yaml") + "': file not found");
    }

    @Test
    void replayPrintsOneJsonLinePerEvent() throws IOException {
        int status = HotspareCli.run("rollout", "replay", "--spec", EXAMPLES.resolve("spec.yaml").toString(),
                "--inventory", EXAMPLES.resolve("inventory.json").toString(), "--events", EXAMPLES.resolve("events.jsonl").toString());
        assertThat(status).as(err()).isZero();
        List<JsonNode> steps = new ArrayList<>();
        for (String line : out().lines().toList()) {
            steps.add(Documents.jsonReader().readTree(line));
        }
        assertThat(steps).hasSize(16);
        assertThat(steps.get(1).at("/state/phase").asText()).isEqualTo("WAITING_FOR_WINDOW");
        assertThat(steps.get(2).at("/commands/0/type").asText()).isEqualTo("Emit");
        assertThat(steps.get(2).toString()).contains("\"type\":\"IssueOp\"", "edge-2026-01:upgrade:node:node-a:1");
        assertThat(steps.get(5).toString()).as("leader change re-issues the services op")
                .contains("\"type\":\"CancelOp\"", "edge-2026-01:upgrade:services:services:2");
        assertThat(steps.get(8).at("/state/droppedReports").asInt()).isEqualTo(1);
        assertThat(steps.get(15).at("/state/phase").asText()).isEqualTo("SUCCEEDED");
    }

    @Test
    void replayReportsBadEventLinesWithTheirLineNumbers() throws IOException {
        Path events = Files.writeString(dir.resolve("events.jsonl"), """
                {"at": "2026-01-01T21:00:00Z", "event": {"type": "Start"}}

                {"at": "2026-01-01T20:00:00Z", "event": {"type": "Tick", "at": "2026-01-01T20:00:00Z"}}
                {"at": "2026-01-01T22:00:00Z", "event": {"type": "Launch"}}
                not json
                """);
        int status = HotspareCli.run("rollout", "replay", "--spec", EXAMPLES.resolve("spec.yaml").toString(),
                "--inventory", EXAMPLES.resolve("inventory.json").toString(), "--events", events.toString());
        assertThat(status).isEqualTo(2);
        List<String> lines = err().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("error: " + events + ": line 3.at: bad value '2026-01-01T20:00:00Z': events must be in time order");
        assertThat(lines.get(1)).isEqualTo("error: " + events + ": line 4.event.type: bad value 'Launch': unknown event type; one of "
                + "Abort, AgentReported, InventoryChanged, LeaderChanged, Resume, Start, Suspend, Tick");
        assertThat(lines.get(2)).startsWith("error: " + events + ": line 5: bad value '<syntax>'");
        assertThat(out()).isEmpty();
    }
}
