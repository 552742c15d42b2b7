package dev.hotspare.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The quick shell commands the README and docs promise, run in-process on the files they name (the CLI's
 * {@code run} is what {@code java -jar cli/target/hotspare.jar} calls), and every scheduler config the docs show
 * validated by the real parser.
 */
class DocCommandsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theReadmeDemoSimulatesAMonthInMemory() {
        CliRun run = CliRun.run("simulate");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isNotBlank();
    }

    @Test
    void theReadmeRolloutPlanCommandPlansTheExampleRollout() {
        CliRun run = CliRun.run("rollout", "plan", "--spec", ROOT.resolve("examples/rollout/spec.yaml").toString(),
                "--inventory", ROOT.resolve("examples/rollout/inventory.json").toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("window estimate:");
    }

    @Test
    void everySchedulerConfigTheDocsShowIsValidAndTheMaestroExampleIsRefusedOnlyForItsGrpcForwarder(@TempDir Path dir)
            throws IOException {
        int checked = 0;
        for (Path doc : docs()) {
            List<String> blocks = yamlBlocks(Files.readString(doc));
            for (int i = 0; i < blocks.size(); i++) {
                String yaml = blocks.get(i);
                // a whole scheduler config, not a fragment of one
                if (!(yaml.startsWith("name:") && yaml.lines().anyMatch(l -> l.startsWith("game:")))) {
                    continue;
                }
                Path file = Files.writeString(dir.resolve(doc.getFileName() + "-" + i + ".yaml"), yaml);
                CliRun run = CliRun.run("validate", file.toString());
                if (yaml.startsWith("name: pong-free-for-all\n")) {
                    // fleet.md's copy of Maestro's example (core's maestro-example.yaml, which parses): the service
                    // and validate refuse Maestro's grpc forwarder, as cli.md says
                    assertThat(run.outLines()).as(run.err()).containsExactly(file + ": forwarders.grpc: bad value "
                            + "'grpc': unknown forwarder plugin; known: logging, webhook");
                } else {
                    assertThat(run.exitCode()).as(doc + " yaml block " + i + ": " + run.out() + run.err()).isZero();
                    assertThat(run.outLines()).containsExactly(file + ": valid");
                }
                checked++;
            }
        }
        assertThat(checked).as("scheduler configs in the docs").isPositive();
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    private static List<String> yamlBlocks(String markdown) {
        List<String> blocks = new ArrayList<>();
        StringBuilder current = null;
        for (String line : markdown.split("\n", -1)) {
            if (current == null && line.equals("```yaml")) {
                current = new StringBuilder();
            } else if (current != null && line.equals("```")) {
                blocks.add(current.toString());
                current = null;
            } else if (current != null) {
                current.append(line).append('\n');
            }
        }
        return blocks;
    }
}
