package dev.hotspare.validation;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationsTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "40m, PT40M", "PT40M, PT40M", "2h30m, PT2H30M", "500ms, PT0.5S", "1m30s, PT1M30S", "1d, PT24H",
            "90s, PT1M30S", "0s, PT0S", "' 5s ', PT5S", "P1D, PT24H", "1h0m1s, PT1H1S"})
    void readsTheShortFormAndIso(String text, String iso) {
        assertThat(Durations.parse("--install", text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "m", "40", "40x", "30m2h", "1.5h", "-5s", "5 s", "ms", "PT"})
    void rejectsAnythingElseNamingTheFieldAndValue(String text) {
        assertThatThrownBy(() -> Durations.parse("--install", text)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("--install").hasMessageContaining("500ms, 30s, 40m, 2h30m or PT40M");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"PT2H30M, 2h30m", "PT0.5S, 500ms", "PT0S, 0s", "PT25H, 1d1h", "PT40M, 40m"})
    void formatsBackToTheShortForm(String iso, String text) {
        assertThat(Durations.format(Duration.parse(iso))).isEqualTo(text);
        assertThat(Durations.parse("x", text)).isEqualTo(Duration.parse(iso));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "PT0S", "-PT1S"})
    void positiveMeansAboveZero(String text) {
        assertThatThrownBy(() -> Durations.parsePositive("hibernateAfter", text)).isInstanceOf(ValidationException.class)
                .hasMessageContaining("hibernateAfter");
    }
}
