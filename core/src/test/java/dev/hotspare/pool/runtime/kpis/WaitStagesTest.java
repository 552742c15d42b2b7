package dev.hotspare.pool.runtime.kpis;

import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.kpi.RecordingKpis.Served;
import dev.hotspare.kpi.RecordingKpis.Stages;
import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolRuntimeTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every claim records when it was created, assigned and ready, and its wait is split by what it waited for:
 * queue (nothing on its way), resume, install. The KPIs report the split next to the wait.
 */
class WaitStagesTest extends PoolRuntimeTest {

    RecordingKpis recording;

    @BeforeEach
    void recordKpis() {
        recording = new RecordingKpis();
        kpis = recording;
    }

    static ClaimStages stages(int queueMinutes, int resumeMinutes, int installMinutes) {
        return new ClaimStages(Duration.ofMinutes(queueMinutes), Duration.ofMinutes(resumeMinutes), Duration.ofMinutes(installMinutes));
    }

    @Test
    void aHotClaimWaitsForNothing() {
        start(PoolSpec.builder("ci").size(2).runningCount(1).build());
        time.advanceBy(Duration.ofMinutes(50));
        controller.claim("job");
        time.runDueTasks();
        assertThat(recording.calls(Stages.class)).containsExactly(new Stages("ci", ClaimService.HOT, ClaimStages.NONE));
    }

    @Test
    void aWarmClaimWaitsForTheResume() {
        start(PoolSpec.builder("ci").size(2).runningCount(0).build());
        time.advanceBy(Duration.ofMinutes(50));
        controller.claim("job");
        time.advanceBy(Duration.ofMinutes(10));
        assertThat(recording.calls(Stages.class)).containsExactly(new Stages("ci", ClaimService.WARM, stages(0, 5, 0)));
    }

    @Test
    void aColdClaimWaitsForTheInstall() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).build());
        controller.claim("job");
        time.advanceBy(Duration.ofMinutes(60));
        assertThat(recording.calls(Stages.class)).containsExactly(new Stages("ci", ClaimService.COLD, stages(0, 0, 40)));
    }

    @Test
    void aClaimBlockedAtMaxSizeQueuesThenWaitsForTheReplacementsInstall() {
        start(PoolSpec.builder("ci").size(0).runningCount(0).maxSize(1).build());
        ClaimHandle first = controller.claim("first");
        time.advanceBy(Duration.ofMinutes(45));
        Instant made = time.now();
        controller.claim("second");
        time.advanceBy(Duration.ofMinutes(30));
        controller.release(first);
        time.advanceBy(Duration.ofMinutes(45));

        assertThat(recording.calls(Stages.class)).extracting(Stages::stages).containsExactly(stages(0, 0, 40), stages(30, 0, 40));
        assertThat(recording.calls(Served.class)).extracting(Served::waited).containsExactly(Duration.ofMinutes(40), Duration.ofMinutes(70));
        Claim second = claims.find("ci", "second").orElseThrow();
        assertThat(second.createdAt()).isEqualTo(made);
        assertThat(second.assignedAt()).contains(made.plus(Duration.ofMinutes(70)));
        assertThat(second.readyAt()).contains(made.plus(Duration.ofMinutes(70)));
    }
}
