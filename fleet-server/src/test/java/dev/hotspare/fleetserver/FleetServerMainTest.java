package dev.hotspare.fleetserver;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad flags stop the fleet service before it starts: exit 2, one line per problem naming flag and value. */
class FleetServerMainTest {

    /** {@link FleetServerMain#run} with its output captured, on an empty environment unless given one. */
    record Run(int exitCode, String out, String err) {

        static Run run(String... args) {
            return run(Map.of(), args);
        }

        static Run run(Map<String, String> env, String... args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            try {
                int code = FleetServerMain.run(new PrintWriter(out, true), new PrintWriter(err, true), env, args);
                return new Run(code, out.toString(), err.toString());
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    @Test
    void everyBadFlagIsReportedWithItsValue() {
        Run run = Run.run("--port", "eighty", "--redis-uri", "http://cache:6379",
                "--jdbc-url", "jdbc:mysql://db/x?password=secret", "--jdbc-schema", "Drop Table", "--bind", "no such host.invalid",
                "--namespace-prefix", "Rooms_", "--max-body-bytes", "0", "--insecure-no-auth");
        assertThat(run.exitCode()).isEqualTo(FleetServerMain.EXIT_BAD_INPUT);
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
        Run run = Run.run("--help");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("--redis-uri", "HOTSPARE_REDIS_URI", "--jdbc-url", "HOTSPARE_JDBC_URL", "HOTSPARE_JDBC_USER",
                "--kubernetes", "--port", "--bind", "--max-body-bytes");
    }

    @Test
    void unknownFlagsStrayArgumentsRepeatsAndMissingValuesAreNamedOneLineEach() {
        Run run = Run.run("--prot", "8080", "--bind=127.0.0.1", "--bind", "0.0.0.0", "--kubernetes=maybe", "--insecure-no-auth", "--jdbc-schema");
        assertThat(run.exitCode()).isEqualTo(FleetServerMain.EXIT_BAD_INPUT);
        assertThat(run.out()).isEmpty();
        assertThat(run.err().lines()).containsExactly(
                "error: fleet-service: --prot: bad value '--prot': unknown flag; did you mean '--port'?",
                "error: fleet-service: argument: bad value '8080': the fleet server takes flags only; see --help",
                "error: fleet-service: --bind: bad value '0.0.0.0': given more than once",
                "error: fleet-service: --jdbc-schema: bad value '<missing>': needs a value: --jdbc-schema SCHEMA",
                "error: fleet-service: --kubernetes: bad value 'maybe': must be true or false");
    }

    @Test
    void flagsWinOverTheirVariablesAndAVariablesBadValueNamesTheVariable() {
        assertThat(Run.run("--port=99999", "--insecure-no-auth").err().lines())
                .containsExactly("error: fleet-service: --port: bad value '99999': must be an integer in 0..65535");
        Run run = Run.run(Map.of("HOTSPARE_PORT", "8080", "HOTSPARE_MAX_BODY_BYTES", "lots", "HOTSPARE_INSECURE_NO_AUTH", "true"), "--port", "-1");
        assertThat(run.exitCode()).isEqualTo(FleetServerMain.EXIT_BAD_INPUT);
        assertThat(run.err().lines()).containsExactly(
                "error: fleet-service: --port: bad value '-1': must be an integer in 0..65535",
                "error: fleet-service: HOTSPARE_MAX_BODY_BYTES: bad value 'lots': must be an integer in 1..2147483646");
    }
}
