package dev.hotspare.sim;

import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.internal.TraceFiles;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Trace files in public formats: detection, the Azure Functions per-minute counts, per-event CSVs, dilate and thin. */
class TraceFilesTest {

    static final Instant DAY = Instant.parse("2026-01-05T00:00:00Z");

    static TraceFiles.Options options(double dilate, int thin) {
        return new TraceFiles.Options(Optional.empty(), Duration.ofMinutes(30), dilate, thin, DAY, 1);
    }

    static String header() {
        StringBuilder b = new StringBuilder("HashOwner,HashApp,HashFunction,Trigger");
        for (int m = 1; m <= 1440; m++) {
            b.append(',').append(m);
        }
        return b.toString();
    }

    /** A function row with {@code counts} in its first minutes and zeros after. */
    static String row(String name, int... counts) {
        StringBuilder b = new StringBuilder("o,a," + name + ",http");
        for (int m = 0; m < 1440; m++) {
            b.append(',').append(m < counts.length ? counts[m] : 0);
        }
        return b.toString();
    }

    @Test
    void azureFunctionsCountsAreSummedOverFunctionsAndSpreadWithinEachMinute() {
        List<String> file = List.of(header(), row("f1", 2, 0, 1), row("f2", 1));
        assertThat(TraceFiles.detect(file)).isEqualTo(TraceFiles.Format.AZURE_FUNCTIONS);
        List<ClaimArrival> claims = TraceFiles.read(file, options(1, 1));
        assertThat(claims).hasSize(4).allSatisfy(c -> assertThat(c.hold()).isEqualTo(Duration.ofMinutes(30)));
        assertThat(claims.subList(0, 3)).allSatisfy(c -> assertThat(c.at()).isBetween(DAY, DAY.plusSeconds(60)));
        assertThat(claims.get(3).at()).isBetween(DAY.plusSeconds(120), DAY.plusSeconds(180));
        assertThat(TraceFiles.read(file, options(1, 1))).as("seeded").isEqualTo(claims);
        assertThat(TraceFiles.read(file, options(1, 2))).as("every 2nd invocation").hasSize(2);
    }

    @Test
    void oneAzureFunctionIsSelectedByItsHashAndAMissingHashNamesTheFunctionsThereAre() {
        List<String> file = List.of(header(), row("f1", 2, 0, 1), row("F2", 1), row("f1", 0, 0, 0, 1));
        TraceFiles.Options f2 = new TraceFiles.Options(Optional.empty(), Duration.ofMinutes(30), 1, 1, DAY, 1, Optional.of(" f2 "));
        assertThat(TraceFiles.read(file, f2)).as("F2 only, matched ignoring case and blanks").hasSize(1);
        TraceFiles.Options f1 = new TraceFiles.Options(Optional.empty(), Duration.ofMinutes(30), 1, 1, DAY, 1, Optional.of("f1"));
        assertThat(TraceFiles.read(file, f1)).as("both rows of f1 summed").hasSize(4);
        // Another function's bad counts do not matter when it is not selected.
        String broken = row("f3", 1).replaceFirst(",http,1,", ",http,x,");
        assertThat(TraceFiles.read(List.of(header(), broken, row("f1", 1)), f1)).hasSize(1);
        TraceFiles.Options missing = new TraceFiles.Options(Optional.empty(), Duration.ofMinutes(30), 1, 1, DAY, 1, Optional.of("f9"));
        assertThatThrownBy(() -> TraceFiles.read(file, missing)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("--function").hasMessageContaining("f9")
                .hasMessageContaining("f1 (line 2), F2 (line 3), f1 (line 4)");
        assertThatThrownBy(() -> TraceFiles.read(List.of(header(), row("f1", 1), row("f0")),
                new TraceFiles.Options(Optional.empty(), Duration.ofMinutes(30), 1, 1, DAY, 1, Optional.of("f0"))))
                .hasMessageContaining("f0").hasMessageContaining("no invocations");
        assertThatThrownBy(() -> TraceFiles.read(List.of("TIMESTAMP,x", "2023-11-16 18:15:46,1"), f1))
                .hasMessageContaining("--function").hasMessageContaining("read as events");
        assertThatThrownBy(() -> new TraceFiles.Options(Optional.empty(), Duration.ZERO, 1, 1, DAY, 1, Optional.of(" ")))
                .hasMessageContaining("--function");
    }

    @Test
    void eventsAreReadFromTheFirstColumnInEachTimestampForm() {
        List<String> file = List.of("TIMESTAMP,ContextTokens,GeneratedTokens", "2023-11-16 18:15:46.6805900,4808,10",
                "2023-11-16T18:16:00Z,1,2", "1700158600,3,4");
        assertThat(TraceFiles.detect(file)).isEqualTo(TraceFiles.Format.EVENTS);
        assertThat(TraceFiles.read(file, options(1, 1))).extracting(ClaimArrival::at).containsExactly(
                Instant.parse("2023-11-16T18:15:46.680590Z"), Instant.parse("2023-11-16T18:16:00Z"),
                Instant.parse("2023-11-16T18:16:40Z"));
    }

    @Test
    void dilateStretchesTimeFromTheFirstClaimAndThinKeepsEveryKth() {
        List<String> file = new ArrayList<>(List.of("time,hold"));
        for (int i = 0; i < 6; i++) {
            file.add(DAY.plusSeconds(60L * i) + ",PT1H");
        }
        assertThat(TraceFiles.detect(file)).isEqualTo(TraceFiles.Format.CLAIMS);
        assertThat(TraceFiles.read(file, options(2.5, 2))).containsExactly(
                new ClaimArrival(DAY, Duration.ofHours(1)), new ClaimArrival(DAY.plusSeconds(300), Duration.ofHours(1)),
                new ClaimArrival(DAY.plusSeconds(600), Duration.ofHours(1)));
    }

    @Test
    void aBadFileIsNamedByLineAndField() {
        assertThatThrownBy(() -> TraceFiles.read(List.of("TIMESTAMP,x", "2023-11-16 18:15:46,1", "yesterday,2"), options(1, 1)))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("line 3, field 1 (timestamp)").hasMessageContaining("yesterday");
        String bad = row("f1", 1).replaceFirst(",http,1,", ",http,x,");
        assertThatThrownBy(() -> TraceFiles.read(List.of(header(), bad), options(1, 1)))
                .isInstanceOf(ValidationException.class).hasMessageContaining("line 2, field 5 (minute 1)");
        assertThatThrownBy(() -> TraceFiles.read(List.of(header(), "o,a,f,http,1,2"), options(1, 1)))
                .isInstanceOf(ValidationException.class).hasMessageContaining("line 2").hasMessageContaining("expected 1444");
        assertThatThrownBy(() -> options(0, 0)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("--dilate").hasMessageContaining("--thin");
        assertThat(TraceFiles.Format.parse("--trace-format", "Azure-Functions")).isEqualTo(TraceFiles.Format.AZURE_FUNCTIONS);
        assertThatThrownBy(() -> TraceFiles.Format.parse("--trace-format", "parquet")).hasMessageContaining("--trace-format")
                .hasMessageContaining("parquet");
    }
}
