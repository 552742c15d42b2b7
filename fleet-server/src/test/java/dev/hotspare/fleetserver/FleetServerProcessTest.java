package dev.hotspare.fleetserver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real program in a process of its own: SIGTERM stops it gracefully — it stops, prints its KPIs and exits 0 —
 * instead of the JVM's exit status 143.
 */
class FleetServerProcessTest {

    private static final Pattern LISTENING = Pattern.compile("fleet-service listening on http://127\\.0\\.0\\.1:(\\d+)");

    @Test
    void sigtermStopsTheServiceGracefullyWithExitStatusZero(@TempDir Path dir) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = dir.resolve("output.txt");
        // Output goes to a file: reading a process's pipe while it exits can fail with "Stream closed".
        Process process = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                FleetServerMain.class.getName(), "--port", "0", "--shutdown-timeout", "5", "--insecure-no-auth")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> LISTENING.matcher(Files.readString(output)).find());
            Matcher m = LISTENING.matcher(Files.readString(output));
            assertThat(m.find()).isTrue();
            int port = Integer.parseInt(m.group(1));
            assertThat(new Http(port).get("/healthcheck").status()).isEqualTo(200);

            process.destroy(); // SIGTERM
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped within the grace period").isTrue();
            String all = Files.readString(output);
            assertThat(process.exitValue()).as(all).isZero();
            assertThat(all).contains("fleet-service stopped").doesNotContain("Exception");
            // Running without authentication is said when it starts (and every minute after).
            assertThat(all).contains("authentication is OFF");
        } finally {
            process.destroyForcibly();
        }
    }
}
