package dev.hotspare.cli;

import org.junit.jupiter.api.Test;

import static dev.hotspare.cli.CliRun.resource;
import static org.assertj.core.api.Assertions.assertThat;

class ValidateCommandTest {

    @Test
    void validFilesPrintValidAndExitZero() {
        String yaml = resource("room.yaml");
        String json = resource("maestro-create.json");
        CliRun run = CliRun.run("validate", yaml, json);
        assertThat(run.exitCode()).isZero();
        assertThat(run.outLines()).containsExactly(yaml + ": valid", json + ": valid");
    }

    @Test
    void maestrosGrpcForwarderIsRefusedAsTheServiceRefusesIt() {
        String yaml = resource("maestro-example.yaml");
        CliRun run = CliRun.run("validate", yaml);
        assertThat(run.exitCode()).isEqualTo(ValidateCommand.EXIT_INVALID);
        assertThat(run.outLines()).containsExactly(yaml + ": forwarders.grpc: bad value 'grpc': unknown forwarder plugin; "
                + "known: logging, webhook");
    }

    @Test
    void everyProblemIsPrintedWithFilePathValueAndReason() {
        String bad = resource("planted-mistakes.yaml");
        String good = resource("room.yaml");
        CliRun run = CliRun.run("validate", good, bad);
        assertThat(run.exitCode()).isEqualTo(ValidateCommand.EXIT_INVALID);
        assertThat(run.outLines()).first().isEqualTo(good + ": valid");
        assertThat(run.outLines()).hasSize(13).filteredOn(l -> l.startsWith(bad + ": ")).hasSize(12);
        assertThat(run.out())
                .contains(bad + ": name: bad value 'Pong_Free': must be a DNS-1123 label")
                .contains(bad + ": occupiedTimout: bad value 'occupiedTimout': unknown field; did you mean 'occupiedTimeout'?")
                .contains(bad + ": autoscaling.down.metricsTrigger[0].type: bad value 'memory': unknown trigger type;")
                .contains("known types: buffer, cpu, legacy, mem, room")
                .doesNotContain("Exception");
    }

    @Test
    void missingFileIsAProblemNotAStackTrace() {
        CliRun run = CliRun.run("validate", "/no/such/file.yaml");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("/no/such/file.yaml: (document): bad value '/no/such/file.yaml': file not found");
        assertThat(run.err()).doesNotContain("Exception");
    }

    @Test
    void pluginTriggerTypesAreKnown() {
        CliRun run = CliRun.run("validate", resource("buffer.yaml"));
        assertThat(run.exitCode()).isZero();
    }

    @Test
    void noFileIsBadUsage() {
        CliRun run = CliRun.run("validate");
        assertThat(run.exitCode()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.err()).contains("error:");
    }
}
