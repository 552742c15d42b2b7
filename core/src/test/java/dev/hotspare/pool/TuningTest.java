package dev.hotspare.pool;

import dev.hotspare.pool.PoolPlanner.Tuning;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The seed's tuning examples: runningCount = round_up(claim frequency × install time). */
class TuningTest {

    @Test
    void oneClaimEvery15MinutesWithA40MinuteInstallNeedsThree() {
        assertThat(Tuning.suggestedRunningCount(1.0 / 15, Duration.ofMinutes(40))).isEqualTo(3);
    }

    @Test
    void elevenClaimsAnHourAtPeakNeedsEight() {
        assertThat(Tuning.suggestedRunningCount(11.0 / 60, Duration.ofMinutes(40))).isEqualTo(8);
    }

    @Test
    void halfAClaimAnHourNeedsOne() {
        assertThat(Tuning.suggestedRunningCount(0.5 / 60, Duration.ofMinutes(40))).isEqualTo(1);
    }

    @Test
    void noClaimsNeedNone() {
        assertThat(Tuning.suggestedRunningCount(0, Duration.ofMinutes(40))).isZero();
    }
}
