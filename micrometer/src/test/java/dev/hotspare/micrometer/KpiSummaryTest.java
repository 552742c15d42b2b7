package dev.hotspare.micrometer;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Claim.ClaimStages;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.RolloutProgress;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class KpiSummaryTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());
    private final MicrometerKpis kpis = new MicrometerKpis(registry);

    @Test
    void anEmptyRegistryHasNoSummary() {
        assertThat(KpiSummary.lines(registry)).isEmpty();
        assertThat(KpiSummary.render(registry)).isEmpty();
    }

    @Test
    void summarisesEveryKpiPerPoolThenPerSchedulerThenLocksThenRollouts() {
        kpis.claimServed("ci", ClaimService.COLD, Duration.ofMinutes(40));
        kpis.claimServed("ci", ClaimService.HOT, Duration.ZERO);
        kpis.claimServed("ci", ClaimService.HOT, Duration.ZERO);
        kpis.claimServed("ci", ClaimService.WARM, Duration.ofMinutes(5));
        Map<MemberState, Integer> members = new EnumMap<>(MemberState.class);
        for (MemberState s : MemberState.values()) {
            members.put(s, 0);
        }
        members.put(MemberState.RUNNING, 1);
        members.put(MemberState.HIBERNATED, 3);
        kpis.membersPerState("ci", members);
        kpis.scaled("ci", ScaleOperation.CREATE, 4);
        kpis.roomsPerStatus("pong", new RoomStatusCounts(0, 2, 1, 0));
        kpis.roomsScaled("pong", ScaleOperation.SCALE_UP, 3);
        kpis.lockWaited(LockId.of("pong", LockKind.DOWNSCALE), LockOutcome.ACQUIRED, Duration.ofMillis(3500));
        kpis.leaseLost(LockId.of("pong", LockKind.DOWNSCALE));
        kpis.rolloutProgress("r1", new RolloutProgress(Phase.DEVICES, 4, 6));

        // Percentiles are Micrometer's client-side estimates (about 1% off): max is exact, p50 of one 5-minute wait is not.
        assertThat(KpiSummary.lines(registry)).containsExactly(
                "pool ci",
                "  claims served      4: hot 2 (50.0%), warm 1 (25.0%), cold 1 (25.0%)",
                "  claim wait         hot   n=2 p50 0s p95 0s p99 0s max 0s",
                "  claim wait         warm  n=1 p50 4m59s p95 4m59s p99 4m59s max 5m00s",
                "  claim wait         cold  n=1 p50 39m48s p95 39m48s p99 39m48s max 40m00s",
                "  members now        hibernated 3, running 1",
                "  scale operations   create 1 ops / 4 members",
                "scheduler pong",
                "  rooms now          occupied 1, ready 2",
                "  scale operations   scale-up 1 ops / 3 rooms",
                "locks",
                "  pong downscale     acquired 1 (mean 3.5s, max 3.5s), leases lost 1",
                "rollout r1: devices, 4/6 targets done");
    }

    @Test
    void aPoolThatReportsWaitStagesGetsTheirMeansPerClaim() {
        kpis.claimServed("ci", ClaimService.WARM, Duration.ofMinutes(5));
        kpis.claimStages("ci", ClaimService.WARM, new ClaimStages(Duration.ZERO, Duration.ofMinutes(5), Duration.ZERO));
        kpis.claimServed("ci", ClaimService.COLD, Duration.ofMinutes(70));
        kpis.claimStages("ci", ClaimService.COLD, new ClaimStages(Duration.ofMinutes(30), Duration.ZERO, Duration.ofMinutes(40)));

        assertThat(KpiSummary.lines(registry)).contains(
                "  wait by stage      queue 15m00s, resume 2m30s, install 20m00s (mean per claim, 2 claims)");
        assertThat(registry.find(MicrometerKpis.CLAIM_WAIT_STAGE).tags("pool", "ci", "stage", "install").timer().totalTime(
                java.util.concurrent.TimeUnit.MINUTES)).isEqualTo(40.0);
    }

    @Test
    void aPoolNamedLikeASchedulerKeepsItsOwnSection() {
        kpis.roomsPerStatus("shared", new RoomStatusCounts(1, 0, 0, 0));
        kpis.claimServed("shared", ClaimService.HOT, Duration.ZERO);

        assertThat(KpiSummary.lines(registry)).contains("pool shared", "  claims served      1: hot 1 (100.0%)",
                "scheduler shared", "  rooms now          creating 1");
    }
}
