package dev.hotspare.fleet;

import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Maestro 10's maxSurge: "25%" of the rooms or a number of rooms, at least one room per chunk. */
class MaxSurgeTest {

    @ParameterizedTest(name = "maxSurge {0} of {1} rooms: {2} at a time")
    @CsvSource({
            "25%, 8, 2",
            "25%, 6, 2",     // ceil(1.5)
            "25%, 1, 1",
            "25%, 0, 1",
            "100%, 7, 7",
            "1%, 150, 2",
            "3, 8, 3",
            "3, 2, 3",       // more than there are: the whole fleet at once
            "' 10 % ', 20, 2",
    })
    void chunkSizes(String text, int rooms, int chunk) {
        assertThat(MaxSurge.parse("maxSurge", text).chunkSize(rooms)).isEqualTo(chunk);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "0%", "101%", "-1", "25.5%", "%", "abc", "25%%", ""})
    void badValuesAreNamed(String text) {
        assertThatThrownBy(() -> MaxSurge.parse("maxSurge", text)).isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("maxSurge: bad value");
    }

    @ParameterizedTest
    @ValueSource(strings = {"25%", "3"})
    void textRoundTrips(String text) {
        assertThat(MaxSurge.parse("maxSurge", text)).hasToString(text);
    }
}
