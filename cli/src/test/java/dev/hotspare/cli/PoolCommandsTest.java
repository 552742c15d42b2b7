package dev.hotspare.cli;

import tools.jackson.databind.JsonNode;
import dev.hotspare.json.Documents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code hotspare plan} and {@code hotspare simulate}, run as a user would, with captured output. */
class PoolCommandsTest {

    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cli = HotspareCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int status = cli.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void planPrintsThePlanForTheDocumentedExample() throws IOException {
        Run run = run("plan", "--pool", "../docs/examples/pool.yaml", "--state", "../docs/examples/state.json",
                "--now", "2026-01-01T12:00:00Z");
        assertThat(run.status()).as(run.err()).isZero();
        JsonNode plan = Documents.jsonReader().readTree(run.out());
        assertThat(plan.at("/assignments/0/claimName").asString()).isEqualTo("pr-1234");
        assertThat(plan.at("/assignments/0/memberId").asString()).isEqualTo("ci-pool-a1");
        assertThat(plan.at("/powerChanges").size()).isEqualTo(3);
        assertThat(plan.at("/powerChanges/2/to").asString()).isEqualTo("HIBERNATING");
        assertThat(plan.at("/creates").size()).isEqualTo(2);
        assertThat(plan.at("/status/claimed").asInt()).isEqualTo(2);
        // Counted as Hive counts it: before this pass's assignments, so ci-pool-a1 (assigned now) is still counted.
        assertThat(plan.at("/status/current").asInt()).isEqualTo(3);
        assertThat(plan.at("/status/allCurrent").asBoolean()).isTrue();
        assertThat(plan.at("/reasons").size()).isZero();
        assertThat(plan.at("/orphans").size()).isZero();
    }

    @Test
    void planSaysWhatEachWaitingClaimWaitsForAndCountsTemplateVersions(@TempDir Path dir) throws IOException {
        Path state = Files.writeString(dir.resolve("state.json"), """
                {"members": [
                  {"id": "a", "createdAt": "2026-01-01T08:00:00Z", "templateVersion": "ocp-4-16", "phase": "READY",
                   "desiredPower": "HIBERNATING", "observedPower": "HIBERNATING", "installedAt": "2026-01-01T08:40:00Z"},
                  {"id": "b", "createdAt": "2026-01-01T08:01:00Z", "phase": "READY",
                   "desiredPower": "HIBERNATING", "observedPower": "HIBERNATING", "installedAt": "2026-01-01T08:41:00Z"},
                  {"id": "c", "createdAt": "2026-01-01T08:02:00Z", "templateVersion": "ocp-4-15", "phase": "READY",
                   "desiredPower": "HIBERNATING", "observedPower": "HIBERNATING", "installedAt": "2026-01-01T08:42:00Z"},
                  {"id": "d", "createdAt": "2026-01-01T08:03:00Z", "templateVersion": "ocp-4-16", "phase": "READY",
                   "desiredPower": "RUNNING", "observedPower": "RUNNING", "installedAt": "2026-01-01T08:43:00Z",
                   "claimName": "gone", "claimedAt": "2026-01-01T09:00:00Z", "orphanedSince": "2026-01-01T11:55:00Z"}],
                 "claims": [{"name": "pr-1", "createdAt": "2026-01-01T11:59:00Z"}]}
                """);
        Run run = run("plan", "--pool", "../docs/examples/pool.yaml", "--state", state.toString(), "--now", "2026-01-01T12:00:00Z");
        assertThat(run.status()).as(run.err()).isZero();
        JsonNode plan = Documents.jsonReader().readTree(run.out());
        assertThat(plan.at("/reasons/0/claimName").asString()).isEqualTo("pr-1");
        assertThat(plan.at("/reasons/0/reason/kind").asString()).isEqualTo("WAITING_FOR_RESUME");
        assertThat(plan.at("/reasons/0/reason/member").asString()).isEqualTo("a");
        assertThat(plan.at("/reasons/0/reason/text").asString()).startsWith("waiting for member a to resume");
        assertThat(plan.at("/status/current").asInt()).isEqualTo(1);
        assertThat(plan.at("/status/stale").asInt()).isEqualTo(1);
        assertThat(plan.at("/status/unknown").asInt()).isEqualTo(1);
        assertThat(plan.at("/status/allCurrent").asBoolean()).isFalse();
        assertThat(plan.at("/orphans/0/memberId").asString()).isEqualTo("d");
        assertThat(plan.at("/orphans/0/deletableAt").asString()).isEqualTo("2026-01-01T12:05:00Z");
        assertThat(plan.at("/deletes").size()).as("an orphan inside its grace period stays").isZero();
    }

    @Test
    void planForAPoolBeingDeleted(@TempDir Path dir) throws IOException {
        Path pool = Files.writeString(dir.resolve("pool.yaml"), Files.readString(Path.of("../docs/examples/pool.yaml")) + "deleted: true\n");
        Run run = run("plan", "--pool", pool.toString(), "--state", "../docs/examples/state.json", "--now", "2026-01-01T12:00:00Z");
        assertThat(run.status()).as(run.err()).isZero();
        JsonNode plan = Documents.jsonReader().readTree(run.out());
        assertThat(plan.at("/assignments").size()).isZero();
        assertThat(plan.at("/creates").size()).isZero();
        assertThat(plan.at("/deletes").size()).isEqualTo(3);
        assertThat(plan.at("/deletes/0/reason").asString()).isEqualTo("POOL_DELETED");
        assertThat(plan.at("/reasons/0/reason/kind").asString()).isEqualTo("POOL_DELETING");
        assertThat(plan.at("/status/poolDeleted").asBoolean()).isTrue();
        assertThat(plan.at("/status/deletionWaitsFor").toString())
                .isEqualTo("[\"ci-pool-d4\",\"ci-pool-a1\",\"ci-pool-b2\",\"ci-pool-c3\"]");
    }

    @Test
    void planRejectsBadInputWithOneLinePerProblemAndStatus2(@TempDir Path dir) throws IOException {
        Path pool = Files.writeString(dir.resolve("pool.yaml"), "name: ci\nsize: -1\nrunningCout: 2\n");
        Run run = run("plan", "--pool", pool.toString(), "--state", dir.resolve("missing.json").toString(), "--now", "2026-01-01T12:00:00Z");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err().lines()).containsExactly(
                "error: " + pool + ": runningCout: bad value 'runningCout': unknown field; did you mean 'runningCount'?",
                "error: " + pool + ": size: bad value '-1': must be >= 0",
                "error: " + dir.resolve("missing.json") + ": (document): bad value '" + dir.resolve("missing.json") + "': file not found");
        assertThat(run.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void planRejectsAMalformedTime() {
        Run run = run("plan", "--pool", "../docs/examples/pool.yaml", "--state", "../docs/examples/state.json", "--now", "yesterday");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--now").contains("yesterday").doesNotContain("\tat ");
    }

    @Test
    void simulatePrintsATableRecommendsARunningCountAndWritesTheChart(@TempDir Path dir) {
        Path chart = dir.resolve("chart");
        Run run = run("simulate", "--days", "7", "--running-to", "3", "--chart", chart.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("runningCount  claims  wait p50");
        assertThat(run.out().lines().filter(l -> l.matches("^[0-3] +\\d+ .*"))).hasSize(4);
        assertThat(run.out()).containsPattern("recommended runningCount: \\d");
        assertThat(run.out()).containsPattern("KPIs at runningCount \\d")
                .containsPattern("  pool sim\n    claims served +\\d+: hot \\d+ ")
                .containsPattern("    claim wait +hot +n=\\d+ p50 ")
                .contains("    members now ").contains("    scale operations   create ");
        assertThat(dir.resolve("chart.png")).isNotEmptyFile();
        assertThat(dir.resolve("chart.svg")).content().contains("<svg");
    }

    @Test
    void simulateReplaysACsvTrace(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("trace.csv"),
                "time,hold\n2026-01-05T09:00:00Z,PT1H\n2026-01-05T09:05:00Z,PT1H\n2026-01-05T09:06:00Z,PT30M\n");
        Run run = run("simulate", "--trace", trace.toString(), "--size", "2", "--chart", dir.resolve("c").toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("3 claims");
    }

    @Test
    void simulateRejectsBadOptionsByName() {
        Run run = run("simulate", "--days", "0", "--size", "-1");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("--days: bad value '0'").contains("--size: bad value '-1'");
    }
}
