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
    void rejectsMalformedVersionsNamingTheValue() {
        for (String bad : new String[] {"", "v", "v1", "v0.1", "1.2.3", "v-1.0", "latest"}) {
            assertThatThrownBy(() -> SchedulerVersion.parse(bad)).as(bad).isInstanceOf(ValidationException.class)
                    .hasMessageContaining("version").hasMessageContaining("'" + bad + "'");
        }
    }
}
