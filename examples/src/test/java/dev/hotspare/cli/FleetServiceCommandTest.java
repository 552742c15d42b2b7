package dev.hotspare.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad flags stop the fleet service before it starts: exit 2, one line per problem naming flag and value. */
class FleetServiceCommandTest {

    @Test
    void everyBadFlagIsReportedWithItsValue() {
        CliRun run = CliRun.run("fleet-service", "--port", "eighty", "--redis-uri", "http://cache:6379",
                "--jdbc-url", "jdbc:mysql://db/x?password=secret", "--jdbc-schema", "Drop Table", "--bind", "no such host.invalid",
                "--namespace-prefix", "Rooms_", "--max-body-bytes", "0");
        assertThat(run.exitCode()).isEqualTo(HotspareCli.EXIT_BAD_INPUT);
        assertThat(run.err().lines().toList()).hasSize(7).allMatch(line -> line.startsWith("error: fleet-service: --"));
        assertThat(run.err())
                .contains("--port: bad value 'eighty': must be an integer in 0..65535")
                .contains("--redis-uri: bad value 'http://cache:6379'")
                .contains("--jdbc-url: bad value 'jdbc:mysql://db/x?password=***'")
                .contains("--jdbc-schema: bad value 'Drop Table'")
                .contains("--bind: bad value 'no such host.invalid'")
                .contains("--namespace-prefix: bad value 'Rooms_'")
                .contains("--max-body-bytes: bad value '0'")
                .doesNotContain("secret")
                .doesNotContain("Exception");
    }

    @Test
    void helpListsEveryFlagWithItsEnvironmentVariable() {
        CliRun run = CliRun.run("fleet-service", "--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--redis-uri", "HOTSPARE_REDIS_URI", "--jdbc-url", "HOTSPARE_JDBC_URL", "HOTSPARE_JDBC_USER",
                "--kubernetes", "--port", "--bind", "--max-body-bytes");
    }
}
