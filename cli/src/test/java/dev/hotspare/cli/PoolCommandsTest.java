package dev.hotspare.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
        assertThat(plan.at("/assignments/0/claimName").asText()).isEqualTo("pr-1234");
        assertThat(plan.at("/assignments/0/memberId").asText()).isEqualTo("ci-pool-a1");
        assertThat(plan.at("/powerChanges").size()).isEqualTo(3);
        assertThat(plan.at("/powerChanges/2/to").asText()).isEqualTo("HIBERNATING");
        assertThat(plan.at("/creates").size()).isEqualTo(2);
        assertThat(plan.at("/status/claimed").asInt()).isEqualTo(2);
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
