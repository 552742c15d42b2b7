package dev.hotspare.cli;

import tools.jackson.databind.JsonNode;
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
                "group 2: !legacy,tier=edge", "nic-02 | nic-03", "device/nic-04: already at version 2.1.0",
                "device/nic-06: not healthy", "op timeout",
                "window estimate:      PT1H50M = nodes PT40M + services PT30M + devices PT40M in 4 round(s)",
                "window:               FITS",
                "warning: device(s) not healthy, skipped: nic-06; the rollout will end FAILED unless they recover before their group's turn");
        assertThat(out()).doesNotContain("refused");
    }

    @Test
    void everyRowOfThePlanTableIsAlignedWithItsHeaderEvenTheWindowStartRow() {
        int status = HotspareCli.run("rollout", "plan", "--spec", EXAMPLES.resolve("spec.yaml").toString(),
                "--inventory", EXAMPLES.resolve("inventory.json").toString());
        assertThat(status).as(err()).isZero();
        List<String> lines = out().lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("#   stage")).findFirst().orElseThrow());
        int order = lines.get(header).indexOf("order");
        int end = header + 1;
        while (!lines.get(end).isEmpty()) {
            end++;
        }
        List<String> rows = lines.subList(header + 1, end);
        assertThat(rows).hasSizeGreaterThan(1).first().asString().contains("wait for window start");
        // The "worst case" column ends two spaces before "order" on every row.
        assertThat(rows).allSatisfy(row -> assertThat(row.substring(order - 3, order)).as(row).matches("\\S  "));
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
        assertThat(plan.get("rollout").asString()).isEqualTo("edge-2026-01");
        assertThat(plan.get("stages")).extracting(s -> s.get("kind").asString())
                .containsExactly("WAIT_FOR_WINDOW", "NODES", "SERVICES", "DEVICE_GROUP", "DEVICE_GROUP", "DEVICE_GROUP");
        assertThat(plan.get("windowFit").asString()).isEqualTo("FITS");
        assertThat(plan.at("/estimate/window").asString()).isEqualTo("PT1H50M");
        assertThat(plan.at("/estimate/deviceRounds").asInt()).isEqualTo(4);
        assertThat(plan.at("/stages/3/opTimeout").asString()).isEqualTo("PT10M");
        assertThat(plan.at("/stages/3/parallelism").asInt()).as("50% of one canary device, at least 1").isEqualTo(1);
        assertThat(plan.get("refusals")).isEmpty();
    }

    @Test
    void planShowsWhyAWindowIsTooShortAndReplayRefusesToCreateIt() throws IOException {
        Path spec = Files.writeString(dir.resolve("short.yaml"), """
                name: r1
                targetVersion: 2.1.0
                maxParallel: 1
                prechecks: true
                timeouts: {node: PT20M, services: PT30M, device: PT10M}
                window: {start: "2026-01-01T22:00:00Z", end: "2026-01-01T23:00:00Z"}
                """);
        String inventory = EXAMPLES.resolve("inventory.json").toString();
        assertThat(HotspareCli.run("rollout", "plan", "--spec", spec.toString(), "--inventory", inventory)).isZero();
        assertThat(out()).contains("prechecks worst case: PT1H20M",
                "window estimate:      PT1H50M = nodes PT40M + services PT30M + devices PT40M in 4 round(s)",
                "window:               TOO_SHORT (window PT1H from 2026-01-01T22:00:00Z)",
                "creating this rollout is refused: window: bad value 'PT1H': the worst case PT1H50M");
        int status = HotspareCli.run("rollout", "replay", "--spec", spec.toString(), "--inventory", inventory,
                "--events", EXAMPLES.resolve("events.jsonl").toString());
        assertThat(status).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(err().strip()).startsWith("error: " + spec + ": window: bad value 'PT1H': the worst case PT1H50M (nodes PT40M + "
                + "services PT30M + devices PT40M in 4 round(s)) does not fit the window");
    }

    @Test
    void aBadSelectorIsReportedWithItsPosition() throws IOException {
        Path spec = Files.writeString(dir.resolve("bad.yaml"), """
                name: r1
                targetVersion: 2.1.0
                deviceOrder: ["tier in (canary", "zone nott in (eu)"]
                maxParallel: 150%
                """);
        int status = HotspareCli.run("rollout", "plan", "--spec", spec.toString(), "--inventory", EXAMPLES.resolve("inventory.json").toString());
        assertThat(status).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(err().lines()).containsExactlyInAnyOrder(
                "error: " + spec + ": deviceOrder[0]: bad value 'tier in (canary': at position 15: unable to parse requirement: found '', expected: ',' or ')'",
                "error: " + spec + ": deviceOrder[1]: bad value 'zone nott in (eu)': at position 5: unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt",
                "error: " + spec + ": maxParallel: bad value '150%': a percentage must be between 1% and 100%");
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
        assertThat(steps).hasSize(17);
        assertThat(steps.get(1).at("/state/phase").asString()).isEqualTo("WAITING_FOR_WINDOW");
        assertThat(steps.get(2).at("/commands/0/type").asString()).isEqualTo("Emit");
        assertThat(steps.get(2).toString()).contains("\"type\":\"IssueOp\"", "edge-2026-01:upgrade:node:node-a:1");
        assertThat(steps.get(5).toString()).as("leader change re-issues the services op")
                .contains("\"type\":\"CancelOp\"", "edge-2026-01:upgrade:services:services:2");
        assertThat(steps.get(8).at("/state/droppedReports").asInt()).isEqualTo(1);
        assertThat(steps.get(14).at("/event/type").asString()).isEqualTo("SpecChanged");
        assertThat(steps.get(14).toString()).contains("SPEC_CHANGE_ACCEPTED", "maxFailures 1 -> 2");
        // As Venice: the unhealthy nic-06 was skipped, so the rollout ends FAILED once every stage is done.
        assertThat(steps.get(16).at("/state/phase").asString()).isEqualTo("FAILED");
        assertThat(steps.get(16).at("/state/reason").asString()).contains("1 device(s) were skipped as not healthy: device/nic-06");
        assertThat(steps.get(16).at("/state/targets/SKIPPED").asInt()).as("nic-04 at the version, nic-06 not healthy").isEqualTo(2);
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
                + "Abort, AgentReported, InventoryChanged, LeaderChanged, Resume, SpecChanged, Start, Suspend, Tick");
        assertThat(lines.get(2)).startsWith("error: " + events + ": line 5: bad value '<syntax>'");
        assertThat(out()).isEmpty();
    }
}
