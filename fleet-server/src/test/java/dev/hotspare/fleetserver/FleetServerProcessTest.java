package dev.hotspare.fleetserver;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real program in a process of its own: SIGTERM stops it gracefully — it answers, stops and exits 0, printing
 * its KPIs — instead of the JVM's exit status 143.
 */
class FleetServerProcessTest {

    @Test
    void sigtermStopsTheServiceGracefullyWithExitStatusZero() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                FleetServerMain.class.getName(), "--port", "0", "--shutdown-timeout", "5")
                .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            Pattern listening = Pattern.compile("fleet-service listening on http://127\\.0\\.0\\.1:(\\d+)");
            int port = -1;
            for (String line = out.readLine(); line != null && port < 0; line = out.readLine()) {
                Matcher m = listening.matcher(line);
                if (m.find()) {
                    port = Integer.parseInt(m.group(1));
                }
            }
            assertThat(port).as("the start line").isPositive();
            assertThat(new Http(port).get("/healthcheck").status()).isEqualTo(200);

            process.destroy(); // SIGTERM
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped within the grace period").isTrue();
            assertThat(process.exitValue()).isZero();
            StringBuilder rest = new StringBuilder();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                rest.append(line).append('\n');
            }
            assertThat(rest.toString()).contains("fleet-service stopped").doesNotContain("Exception");
        } finally {
            process.destroyForcibly();
        }
    }
}
