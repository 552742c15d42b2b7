package dev.hotspare.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static dev.hotspare.cli.PoolCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code hotspare simulate --auto}: the sizer beside the best static runningCount, run as a user would. */
class SimulateAutoTest {

    @Test
    void theDiurnalTracePrintsBothPoliciesTheSavingAndWritesTheChart(@TempDir Path dir) {
        Path chart = dir.resolve("auto");
        PoolCommandsTest.Run run = run("simulate", "--auto", "p95=PT1M", "--trace", "diurnal", "--days", "7", "--size", "16",
                "--running-to", "4", "--chart", chart.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.out()).contains("runningCount  claims  wait p50")
                .contains("auto vs static, target p95 <= 1m00s:")
                .containsPattern("\nauto \\(\\d\\.\\d\\d\\) +0s ")
                .containsPattern("\nstatic 3 +0s ")
                .containsPattern("auto: runningCount set between 0 and \\d+ \\(bounds 0\\.\\.4\\), \\d\\.\\d\\d on average; meets the target")
                .containsPattern("best static runningCount meeting the target: 3; auto runs \\d+\\.\\d% fewer running member-hours")
                .containsPattern("\narrival-clairv\\. +0s +0s +0s +100\\.0%")
                .containsPattern("arrival-clairvoyant bound: \\d+\\.\\d running member-hours")
                .containsPattern("rate-clairvoyant bound: \\d+\\.\\d running member-hours, p95 ")
                .containsPattern("clairvoyant saving over static 3: \\d+\\.\\d running member-hours; auto captures -?\\d+\\.\\d% of the clairvoyant saving");
        assertThat(dir.resolve("auto.png")).isNotEmptyFile();
        assertThat(dir.resolve("auto.svg")).content().contains("<svg");
    }

    @Test
    void theBurstyTraceAndACsvTraceCompareToo(@TempDir Path dir) throws IOException {
        PoolCommandsTest.Run bursty = run("simulate", "--auto", "p99=PT5M", "--trace", "bursty", "--days", "2", "--size", "12",
                "--running-to", "2", "--chart", dir.resolve("b.png").toString());
        assertThat(bursty.status()).as(bursty.err()).isZero();
        assertThat(bursty.out()).contains("auto vs static, target p99 <= 5m00s:")
                .contains("chart: " + dir.resolve("b") + ".png, " + dir.resolve("b") + ".svg");
        assertThat(dir.resolve("b.png")).as("a --chart ending in .png is the file, not a stem").isNotEmptyFile();
        assertThat(dir.resolve("b.png.png")).doesNotExist();

        Path csv = Files.writeString(dir.resolve("trace.csv"),
                "time,hold\n2026-01-05T09:00:00Z,PT1H\n2026-01-05T09:05:00Z,PT1H\n2026-01-05T09:06:00Z,PT30M\n");
        PoolCommandsTest.Run replay = run("simulate", "--auto", "p50=PT0S", "--trace", csv.toString(), "--size", "3",
                "--chart", dir.resolve("c").toString());
        assertThat(replay.status()).as(replay.err()).isZero();
        assertThat(replay.out()).contains("3 claims").contains("auto vs static, target p50 <= 0s:")
                .contains("rate-clairvoyant bound: not known for a trace file")
                .containsPattern("arrival-clairvoyant bound: \\d+\\.\\d running member-hours");
    }

    @Test
    void publicTraceFormatsAreReadDilatedAndThinned(@TempDir Path dir) throws IOException {
        StringBuilder header = new StringBuilder("HashOwner,HashApp,HashFunction,Trigger");
        StringBuilder row = new StringBuilder("o,a,f,http");
        for (int m = 1; m <= 1440; m++) {
            header.append(',').append(m);
            row.append(',').append(m % 30 == 0 ? 2 : 0);
        }
        Path azure = Files.writeString(dir.resolve("azure.csv"), header + "\n" + row + "\n");
        PoolCommandsTest.Run functions = run("simulate", "--trace", azure.toString(), "--thin", "2", "--hold", "PT20M",
                "--size", "4", "--chart", dir.resolve("a").toString());
        assertThat(functions.status()).as(functions.err()).isZero();
        assertThat(functions.out()).contains("hotspare simulate: 48 claims over 23h29m"); // first to last claim of the file
        Path two = Files.writeString(dir.resolve("two.csv"), header + "\n" + row + "\n" + row.toString().replace("o,a,f,", "o,a,g,") + "\n");
        PoolCommandsTest.Run one = run("simulate", "--trace", two.toString(), "--function", "g", "--hold", "PT20M",
                "--size", "4", "--chart", dir.resolve("g").toString());
        assertThat(one.status()).as(one.err()).isZero();
        assertThat(one.out()).as("g's 96 invocations, not both rows' 192").contains("hotspare simulate: 96 claims");
        PoolCommandsTest.Run unknown = run("simulate", "--trace", two.toString(), "--trace-function", "h");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("error: " + two + ": --function").contains("'h'").contains("f (line 2), g (line 3)");

        Path events = Files.writeString(dir.resolve("llm.csv"), "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                + "2023-11-16 18:15:46.6805900,4808,10\n2023-11-16 18:16:46.1,1,2\n2023-11-16 20:15:46.1,1,2\n");
        PoolCommandsTest.Run llm = run("simulate", "--auto", "p95=PT1M", "--trace", events.toString(), "--trace-format", "events",
                "--dilate", "24", "--size", "3", "--chart", dir.resolve("l").toString());
        assertThat(llm.status()).as(llm.err()).isZero();
        assertThat(llm.out()).contains("hotspare simulate: 3 claims over 1d23h59m"); // 1 h 59 min 59 s stretched 24 times: 47 h 59 min

        Path broken = Files.writeString(dir.resolve("broken.csv"), "TIMESTAMP,x\n2023-11-16 18:15:46,1\nlater,2\n");
        PoolCommandsTest.Run bad = run("simulate", "--trace", broken.toString(), "--trace-format", "events");
        assertThat(bad.status()).isEqualTo(2);
        assertThat(bad.err()).contains("line 3, field 1 (timestamp)").contains("'later'");
        PoolCommandsTest.Run builtIn = run("simulate", "--trace", "diurnal", "--thin", "2");
        assertThat(builtIn.status()).isEqualTo(2);
        assertThat(builtIn.err()).contains("--thin: bad value '2': applies to a trace file only");
    }

    @Test
    void badAutoOptionsAreOneLineEachWithExitTwoAndNoJava() {
        assertThat(run("simulate", "--auto", "p90=PT1M").err()).isEqualTo(
                "error: simulate: --auto: bad value 'p90=PT1M': the simulator reports p50, p95 and p99 waits; use one of those"
                        + System.lineSeparator());
        PoolCommandsTest.Run soon = run("simulate", "--auto", "soon");
        assertThat(soon.status()).isEqualTo(2);
        assertThat(soon.err().lines()).containsExactly(
                "error: simulate: --auto: bad value 'soon': expected a wait target such as p95 <= PT30S or p99=2m");
        PoolCommandsTest.Run lonely = run("simulate", "--override", "Mon-Fri 08:50-10:00 runningCount >= 3");
        assertThat(lonely.status()).isEqualTo(2);
        assertThat(lonely.err().lines()).containsExactly(
                "error: simulate: --override: bad value 'Mon-Fri 08:50-10:00 runningCount >= 3': applies with --auto only");
        PoolCommandsTest.Run window = run("simulate", "--auto", "p95=1m", "--override", "weekdays runningCount >= 3");
        assertThat(window.status()).isEqualTo(2);
        assertThat(window.err()).startsWith("error: simulate: --override: bad value 'weekdays runningCount >= 3': expected e.g.");
        PoolCommandsTest.Run rate = run("simulate", "--trace", "diurnal", "--rate", "3");
        assertThat(rate.status()).isEqualTo(2);
        assertThat(rate.err().lines()).containsExactly(
                "error: simulate: --rate: bad value '3.0': applies to --trace poisson and bursty only");
        for (PoolCommandsTest.Run r : new PoolCommandsTest.Run[] {soon, lonely, window, rate}) {
            assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("dev.hotspare");
        }
    }
}
