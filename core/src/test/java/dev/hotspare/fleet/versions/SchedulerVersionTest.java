package dev.hotspare.fleet.versions;

import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchedulerVersionTest {

    @Test
    void parsesWithOrWithoutTheV() {
        assertThat(SchedulerVersion.parse("v2.3")).isEqualTo(new SchedulerVersion(2, 3));
        assertThat(SchedulerVersion.parse("10.0")).isEqualTo(new SchedulerVersion(10, 0));
        assertThat(SchedulerVersion.FIRST).hasToString("v1.0");
    }

    @Test
    void aVersionWithoutMinorIsItsDotZero() {
        // Maestro reads "v3" as 3.0: its next minor is v3.1, its next major v4.0.
        assertThat(SchedulerVersion.parse("v3")).isEqualTo(new SchedulerVersion(3, 0));
        assertThat(SchedulerVersion.parse("v3").nextMinor()).hasToString("v3.1");
        assertThat(SchedulerVersion.parse("7").nextMajor()).hasToString("v8.0");
    }

    @Test
    void rejectsMalformedVersionsNamingTheValue() {
        for (String bad : new String[] {"", "v", "v0", "v1.", "v0.1", "1.2.3", "v-1.0", "latest"}) {
            assertThatThrownBy(() -> SchedulerVersion.parse(bad)).as(bad).isInstanceOf(ValidationException.class)
                    .hasMessageContaining("version").hasMessageContaining("'" + bad + "'");
        }
    }
}
