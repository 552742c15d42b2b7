package dev.hotspare.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class DiffCommandTest {

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = HotspareCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private Path file(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void aNewImageIsReportedAsMajorWithTheField() throws IOException {
        Path a = file("a.yaml", "name: pong\nimage: pong:v1\nautoscaling:\n  min: 1\n");
        Path b = file("b.json", "{\"name\":\"pong\",\"image\":\"pong:v2\",\"autoscaling\":{\"min\":3}}");

        assertThat(run("diff", a.toString(), b.toString())).isZero();

        assertThat(out.toString()).isEqualTo("""
                major (rooms are replaced)
                  ~ autoscaling.min: 1 -> 3
                  ~ image: "pong:v1" -> "pong:v2"
                """);
    }

    @Test
    void aManagementChangeIsMinor() throws IOException {
        Path a = file("a.yaml", "name: pong\nautoscaling:\n  min: 1\n");
        Path b = file("b.yaml", "name: pong\nautoscaling:\n  min: 2\n");

        assertThat(run("diff", a.toString(), b.toString())).isZero();
        assertThat(out.toString()).startsWith("minor (rooms are kept)");
    }

    @Test
    void badFilesExitTwoWithOneLinePerProblemAndNoStackTrace() throws IOException {
        Path list = file("list.yaml", "- a\n- b\n");
        Path missing = dir.resolve("missing.yaml");

        assertThat(run("diff", missing.toString(), list.toString())).isEqualTo(2);

        assertThat(err.toString().lines()).hasSize(2);
        assertThat(err.toString()).contains("missing.yaml: ").contains("file not found")
                .contains("list.yaml: (document): bad value 'array': a scheduler config must be an object")
                .doesNotContain("Exception");
        assertThat(out.toString()).isEmpty();
    }
}
