package dev.hotspare.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI items of issue 26 §5, through the real command: each bad input exits 2 with one line naming the option
 * or path and the value, no Java and no stack trace; and nothing hangs.
 */
class CliBadInputTest {

    // No time limit here (tests never bound durations): the inputs that used to hang simulate are now refused by
    // validation before any replay starts, which these tests check by the answer itself.
    private static CliRun run(String... args) {
        return CliRun.run(args);
    }

    private static void assertBadInput(CliRun run, String... parts) {
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.err()).contains(parts).doesNotContain("Exception", "java.", "dev.hotspare", "\tat ", "`");
    }

    @Test
    void anAutoTargetTooLongToComputeIsNamedNotAStackTrace() {
        assertBadInput(run("simulate", "--days", "2", "--auto", "p95=PT99999999999999H"),
                "--auto: bad value 'PT99999999999999H': is too long a duration (at most 36500d, 100 years)");
    }

    @Test
    void hugeHoldsAndTracesSpanningMillenniaAreRefusedNotSimulatedForever(@TempDir Path dir) throws IOException {
        Path hold = Files.writeString(dir.resolve("hold.csv"), "time,hold\n2026-01-05T09:00:00Z,PT99999999999H\n");
        assertBadInput(run("simulate", "--trace", hold.toString()), "line 2.hold: bad value 'PT99999999999H': must be at most 365 days");
        Path span = Files.writeString(dir.resolve("span.csv"), "2026-01-05T09:00:00Z,PT1H\n9999-01-05T09:00:00Z,PT1H\n");
        assertBadInput(run("simulate", "--trace", span.toString()), "days; a trace may span at most 3660 days");
    }

    @Test
    void aTraceHeaderAfterACommentIsSkippedAsTheDocsSay(@TempDir Path dir) throws IOException {
        Path trace = Files.writeString(dir.resolve("trace.csv"),
                "# exported from CI\n\ntime,hold\n2026-01-05T09:00:00Z,PT1H\n2026-01-05T10:00:00Z,PT1H\n");
        CliRun run = run("simulate", "--trace", trace.toString(), "--size", "2");
        assertThat(run.exitCode()).as(run.err()).isZero();
        // A header anywhere else is a bad line.
        Path late = Files.writeString(dir.resolve("late.csv"), "2026-01-05T09:00:00Z,PT1H\ntime,hold\n");
        assertBadInput(run("simulate", "--trace", late.toString()), "line 2.time: bad value 'time'");
    }

    @Test
    void aClaimClassPriorityMustBeAWholeNumber(@TempDir Path dir) throws IOException {
        Path state = Files.writeString(dir.resolve("state.json"), """
                {"members": [], "claims": [{"name": "pr-1", "createdAt": "2026-01-01T11:58:00Z",
                  "claimClass": {"name": "urgent", "priority": 1.5}}]}
                """);
        assertBadInput(run("plan", "--pool", "../docs/examples/pool.yaml", "--state", state.toString(), "--now", "2026-01-01T12:00:00Z"),
                "claims[0].claimClass.priority: bad value '1.5': expected a whole number");
    }

    @Test
    void aTicksFileThatIsNoListSaysSo(@TempDir Path dir) throws IOException {
        Path ticks = Files.writeString(dir.resolve("ticks.json"), "\"x\"");
        assertBadInput(run("autoscale", "--config", CliRun.resource("room.yaml"), "--ticks", ticks.toString()),
                "expected a list");
    }

    @Test
    void validateRefusesAForwarderPluginTheServiceRefuses(@TempDir Path dir) throws IOException {
        Path config = Files.writeString(dir.resolve("pong.yaml"), """
                name: pong
                game: pong
                image: pong:1
                forwarders:
                  nosuchplugin:
                    mine: {enabled: true}
                """);
        CliRun run = run("validate", config.toString());
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ValidateCommand.EXIT_INVALID);
        assertThat(run.out()).contains("forwarders.nosuchplugin: bad value 'nosuchplugin': unknown forwarder plugin; known: ")
                .contains("webhook");
    }

    @Test
    void contradictoryOverrideWindowsAreRefusedNamingBoth() {
        assertBadInput(run("simulate", "--days", "2", "--size", "4", "--auto", "p95=5m",
                        "--override", "Mon-Fri 08:00-12:00 runningCount >= 3", "--override", "Mon 11:00-13:00 runningCount <= 1"),
                "--override: bad value 'Mon 11:00-13:00 runningCount <= 1': contradicts overrides[0] "
                        + "('Mon-Fri 08:00-12:00 runningCount >= 3') from Mon 11:00: no running count satisfies both");
        // Windows that do not overlap may bound the count either way.
        CliRun fine = run("simulate", "--days", "2", "--size", "4", "--auto", "p95=5m",
                "--override", "Mon-Fri 08:00-12:00 runningCount >= 3", "--override", "Mon 12:00-13:00 runningCount <= 1");
        assertThat(fine.exitCode()).as(fine.err()).isZero();
    }

    @Test
    void optionValuesOutOfRangeAreNamedWithTheirValue() {
        String config = CliRun.resource("room.yaml");
        String ticks = CliRun.resource("room-ticks.json");
        assertBadInput(run("autoscale", "--config", config, "--ticks", ticks, "--period", "0"),
                "--period: bad value '0': must be a whole number of seconds in 1..86400");
        assertBadInput(run("autoscale", "--config", config, "--ticks", ticks, "--max-scale-up", "0"),
                "--max-scale-up: bad value '0': must be a number of rooms in 1..");
        assertBadInput(run("plan", "--pool", "../docs/examples/pool.yaml", "--state", "../docs/examples/state.json", "--now", "yesterday"),
                "bad value 'yesterday': must be an ISO-8601 instant in UTC such as 2026-01-01T12:00:00Z");
    }
}
