package dev.hotspare.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI never shows Java to a user, through the real command: every bad input exits 2 with one line per problem
 * naming the option or path, the value and the rule; inputs whose work would be out of proportion are refused up
 * front; nothing prints a stack trace or a Java class name.
 */
class CliHardeningTest {

    private static void assertBadInput(CliRun run, String... lines) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.err()).contains(lines).doesNotContain("Exception", "java.", "dev.hotspare", "\tat ");
    }

    /** {@code hotspare validate} says "invalid" (its own exit status, problems on stdout), never Java. */
    private static void assertInvalid(CliRun run, String... lines) {
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(ValidateCommand.EXIT_INVALID);
        assertThat(run.out()).contains(lines).doesNotContain("Exception", "java.", "dev.hotspare", "\tat ");
        assertThat(run.err()).doesNotContain("Exception", "\tat ");
    }

    @Test
    void anOptionValueOfTheWrongKindNamesTheValueNotTheJavaType() {
        assertBadInput(CliRun.run("simulate", "--hold", "abc"), "bad value 'abc': must be a duration such as 500ms, 30s, 40m, 2h30m or PT40M");
        assertBadInput(CliRun.run("simulate", "--size", "lots"), "bad value 'lots': must be a whole number");
    }

    @Test
    void everyDurationFlagTakesTheShortFormAndTheIsoForm() {
        CliRun shortForm = CliRun.run("simulate", "--days", "2", "--size", "2", "--install", "40m", "--resume", "2m30s");
        CliRun isoForm = CliRun.run("simulate", "--days", "2", "--size", "2", "--install", "PT40M", "--resume", "PT2M30S");
        assertThat(shortForm.exitCode()).as(shortForm.err()).isZero();
        assertThat(shortForm.out()).isEqualTo(isoForm.out());
    }

    @Test
    void anUnknownSubcommandSuggestsTheClosestOne() {
        CliRun run = CliRun.run("simulat");
        assertThat(run.exitCode()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.err()).contains("did you mean: simulate?").doesNotContain("Exception", "java.", "picocli");
    }

    @Test
    void bareHotspareShowsTheUsageOnStderrAndExits2() {
        CliRun run = CliRun.run();
        assertThat(run.exitCode()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).contains("Usage: hotspare", "simulate");
    }

    @Test
    void versionIsTheBuildsAndNoEscapeCodesReachAPipe() {
        CliRun run = CliRun.run("--version");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out().strip()).isEqualTo("hotspare " + dev.hotspare.internal.HotspareVersion.current());
        assertThat(dev.hotspare.internal.HotspareVersion.current()).doesNotContain("${").isNotEqualTo("unknown");
        // Under the test runner neither stream is a terminal: no colours in usage or errors.
        assertThat(CliRun.run("simulat").err() + CliRun.run().err()).doesNotContain("\u001b[");
    }

    @Test
    void simulationInputsWhoseWorkWouldBeOutOfProportionAreRefused() {
        assertBadInput(CliRun.run("simulate", "--rate", "Infinity"),
                "error: simulate: --rate: bad value 'Infinity': must be a number of claims per hour in (0, 10000]");
        assertBadInput(CliRun.run("simulate", "--rate", "100000", "--days", "1"), "--rate: bad value '100000.0'");
        assertBadInput(CliRun.run("simulate", "--rate", "5000", "--days", "30"),
                "--rate: bad value '5000.0': with --days 30 makes about 3600000 claims; the limit is 200000");
        assertBadInput(CliRun.run("simulate", "--size", "100000", "--running-to", "5"),
                "error: simulate: --size: bad value '100000': must be in 0..1000");
    }

    @Test
    void aChartThatCannotBeWrittenIsABadInputNotAStackTrace(@TempDir Path dir) throws IOException {
        Path notADirectory = dir.resolve("file");
        Files.writeString(notADirectory, "x");
        CliRun run = CliRun.run("simulate", "--days", "2", "--size", "2", "--chart", notADirectory.resolve("chart").toString());
        assertBadInput(run, "error: simulate: --chart: bad value '" + notADirectory.resolve("chart") + "': cannot write the chart there");
    }

    @Test
    void aDocumentOfTheWrongShapeIsDescribedInTheDocumentsTerms(@TempDir Path dir) throws IOException {
        Path pool = dir.resolve("pool.json");
        Files.writeString(pool, "{\"name\": \"ci\", \"size\": 2}");
        Path state = dir.resolve("state.json");
        Files.writeString(state, "[1, 2]");
        CliRun run = CliRun.run("plan", "--pool", pool.toString(), "--state", state.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.err()).contains("expected an object").doesNotContain("PoolState", "deserialize", "java.", "dev.hotspare");
    }

    @Test
    void validateSaysInvalidForCountsAndDurationsBeyondTheLimits(@TempDir Path dir) throws IOException {
        Path config = dir.resolve("big.yaml");
        Files.writeString(config, "name: big\ngame: big\nimage: big:1\noccupiedTimeout: 9223372036854775807\nautoscaling: {min: 2147483647}\n");
        CliRun run = CliRun.run("validate", config.toString());
        assertInvalid(run, "autoscaling.min: bad value '2147483647': must be at most 10000 (the limit of rooms per scheduler)",
                "occupiedTimeout: bad value '9223372036854775807': must be at most 604800 seconds");
    }

    @Test
    void yamlAliasesDuplicateKeysAndSecondDocumentsAreInvalidInTheCliToo(@TempDir Path dir) throws IOException {
        Path alias = dir.resolve("alias.yaml");
        Files.writeString(alias, "name: pong\ngame: &g pong\nimage: *g\n");
        assertInvalid(CliRun.run("validate", alias.toString()), "is not accepted");
        Path twice = dir.resolve("twice.yaml");
        Files.writeString(twice, "name: pong\ngame: pong\nimage: pong:1\nimage: pong:2\n");
        assertInvalid(CliRun.run("validate", twice.toString()), "Duplicate field 'image'");
        Path two = dir.resolve("two.yaml");
        Files.writeString(two, "name: pong\ngame: pong\nimage: pong:1\n---\nname: other\n");
        assertInvalid(CliRun.run("validate", two.toString()), "more than one document");
    }

    @Test
    void anInputFileLargerThanTheLimitIsRefusedBeforeItIsRead(@TempDir Path dir) throws IOException {
        Path huge = dir.resolve("huge.yaml");
        Files.write(huge, new byte[dev.hotspare.json.Documents.MAX_DOCUMENT_CHARS + 1]);
        assertInvalid(CliRun.run("validate", huge.toString()), "the limit is " + dev.hotspare.json.Documents.MAX_DOCUMENT_CHARS + " bytes");
    }
}
