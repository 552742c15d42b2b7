package dev.hotspare.examples.poolservice;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code hotspare pool-service} as a user runs it: flags checked up front, then a short real-time run. */
class PoolServiceCommandTest {

    private static CliRun runWithStdin(String stdin, String... args) {
        InputStream original = System.in;
        try {
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            return CliRun.run(args);
        } finally {
            System.setIn(original);
        }
    }

    @Test
    void everyBadFlagIsReportedByNameAndValueAtOnce(@TempDir Path dir) throws IOException {
        Path pool = Files.writeString(dir.resolve("pool.yaml"), "name: Ci\nsize: -1\n");
        CliRun run = CliRun.run("pool-service", "--claims", "-1", "--every", "0s", "--hold", "soon", "--install", "-5s",
                "--resync", "fast", "--namespace", "clusters", "--stub-provisioner", "--pool", pool.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().lines()).contains(
                "error: pool-service: --every: bad value '0s': must be a positive duration",
                "error: pool-service: --hold: bad value 'soon': expected a duration such as 5s, 2m, 1h or PT5S",
                "error: pool-service: --install: bad value '-5s': expected a duration such as 5s, 2m, 1h or PT5S",
                "error: pool-service: --resync: bad value 'fast': expected a duration such as 5s, 2m, 1h or PT5S",
                "error: pool-service: --claims: bad value '-1': must be >= 0",
                "error: pool-service: --namespace: bad value 'clusters': needs --kubernetes",
                "error: pool-service: --stub-provisioner: bad value 'true': needs --kubernetes",
                "error: pool-service: --pool " + pool + ": size: bad value '-1': must be >= 0");
        assertThat(run.err()).contains("--pool " + pool + ": name: bad value 'Ci'").doesNotContain("\tat ");
    }

    @Test
    void kubernetesFlagsAreCheckedBeforeAnyConnection(@TempDir Path dir) {
        CliRun run = CliRun.run("pool-service", "--kubernetes", "--namespace", "Bad_NS", "--install", "1s",
                "--template", dir.resolve("missing.yaml").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--namespace: bad value 'Bad_NS': must be a DNS-1123 label")
                .contains("--install: bad value '1s': simulated timings apply in memory or with --stub-provisioner")
                .contains("--template: bad value '" + dir.resolve("missing.yaml") + "': cannot read");
        CliRun typo = CliRun.run("pool-service", "--clams", "3");
        assertThat(typo.exitCode()).isEqualTo(2);
        assertThat(typo.err()).contains("--clams");
    }

    @Test
    void aScriptedRunShowsHotWarmAndHibernationThenExitsByItself(@TempDir Path dir) throws IOException {
        Path pool = Files.writeString(dir.resolve("pool.yaml"), "name: quick\nsize: 2\nrunningCount: 1\nhibernateAfter: PT0.5S\n");
        CliRun run = runWithStdin("status\nclaim BAD\n", "pool-service", "--pool", pool.toString(), "--claims", "2",
                "--every", "100ms", "--install", "300ms", "--resume", "300ms", "--hibernate", "100ms", "--resync", "100ms");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("members: in memory (install 0.3s, resume 0.3s, hibernate 0.1s)",
                "script    pool settled; 2 claims follow", "served    demo-1 -> quick-1 HOT",
                "hibernate quick-1 (claimed by demo-1)",
                "script    done: every scripted claim served and every claimed member hibernated after hibernateAfter",
                "pool-service stopped: script done");
        // Real time: whether quick-2 finished resuming before demo-2 arrived depends on the machine's load, so
        // only demo-1 (served from the settled pool) has a fixed answer; the exact story is pinned on virtual
        // time in PoolServiceInMemoryTest.
        assertThat(run.out()).containsPattern("served    demo-2 -> quick-2 (HOT|WARM)")
                .containsPattern("served so far: 1 hot, 1 warm, 0 cold|served so far: 2 hot, 0 warm, 0 cold");
        assertThat(run.out()).containsPattern("quick-1 +t\\+0\\.\\ds +READY +HIBERNATING +HIBERNATING .* demo-1");
        assertThat(run.err()).contains("error: claim.name: bad value 'BAD': must be a DNS-1123 label");
        // The KPI summary agrees with the event log's count.
        boolean secondWarm = run.out().contains("served so far: 1 hot, 1 warm");
        assertThat(run.out()).contains("KPIs (the meters hotspare-micrometer records", "pool quick",
                secondWarm ? "claims served      2: hot 1 (50.0%), warm 1 (50.0%)" : "claims served      2: hot 2 (100.0%)");
    }

    @Test
    void withoutAScriptItRunsUntilQuit() {
        CliRun run = runWithStdin("claim pr-1\nquit\n", "pool-service", "--claims", "0", "--install", "0s",
                "--resume", "0s", "--hibernate", "0s");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("claim     pr-1 submitted", "pool-service stopped: quit");
    }
}
