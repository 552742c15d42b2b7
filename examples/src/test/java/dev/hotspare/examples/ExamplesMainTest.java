package dev.hotspare.examples;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** The examples jar's main: one subcommand per example, bad usage is exit status 2. */
class ExamplesMainTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = ExamplesMain.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void helpListsEveryExample() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("pool-service", "rollout-demo", "quick-start");
    }

    @Test
    void anUnknownExampleIsBadUsageNamedInOneLine() {
        assertThat(run("pool-servce")).isEqualTo(ExamplesMain.EXIT_BAD_INPUT);
        assertThat(err.toString()).contains("pool-servce").contains("see: hotspare-examples").doesNotContain("\tat ");
    }
}
