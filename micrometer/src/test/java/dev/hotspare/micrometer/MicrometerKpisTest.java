package dev.hotspare.micrometer;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.Member.MemberState;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.rollout.RolloutState.Phase;
import dev.hotspare.rollout.RolloutState.RolloutProgress;
import dev.hotspare.sim.ClaimTraces;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.PoolSimulation;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import dev.hotspare.sim.PoolSimulation.SimulationSettings;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class MicrometerKpisTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());
    private final MicrometerKpis kpis = new MicrometerKpis(registry);

    private double counter(String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    private double gauge(String name, String... tags) {
        return registry.get(name).tags(tags).gauge().value();
    }

    @Test
    void claimWaitsAreTimedPerPoolAndServiceWithPercentilesAndCounted() {
        kpis.claimServed("ci", ClaimService.HOT, Duration.ZERO);
        kpis.claimServed("ci", ClaimService.HOT, Duration.ZERO);
        kpis.claimServed("ci", ClaimService.WARM, Duration.ofMinutes(5));
        kpis.claimServed("ci", ClaimService.COLD, Duration.ofMinutes(40));

        Timer warm = registry.get(MicrometerKpis.CLAIM_WAIT).tags("pool", "ci", "service", "warm").timer();
        assertThat(warm.count()).isEqualTo(1);
        assertThat(warm.totalTime(TimeUnit.MINUTES)).isEqualTo(5.0);
        assertThat(registry.get(MicrometerKpis.CLAIM_WAIT).tags("service", "hot").timer().count()).isEqualTo(2);
        assertThat(registry.get(MicrometerKpis.CLAIM_WAIT).tags("service", "cold").timer().max(TimeUnit.MINUTES)).isEqualTo(40.0);
        HistogramSnapshot snapshot = warm.takeSnapshot();
        assertThat(snapshot.percentileValues()).extracting(v -> v.percentile()).containsExactly(0.5, 0.95, 0.99);
        assertThat(snapshot.percentileValues()[1].value(TimeUnit.MINUTES)).as("p95 of one 5-minute wait").isCloseTo(5.0, org.assertj.core.data.Percentage.withPercentage(2));
        assertThat(counter(MicrometerKpis.CLAIMS_SERVED, "pool", "ci", "service", "hot")).isEqualTo(2.0);
        assertThat(counter(MicrometerKpis.CLAIMS_SERVED, "pool", "ci", "service", "cold")).isEqualTo(1.0);
    }

    @Test
    void ownershipKeepsTheOwnedKeysTheChangesAndTheTimeToReOwn() {
        kpis.acquired("scheduler", "pong", 1, Duration.ZERO);
        kpis.acquired("scheduler", "ping", 4, Duration.ofSeconds(18));
        kpis.acquired("pool", "ci", 2, Duration.ZERO);
        kpis.handedOver("scheduler", "pong");

        assertThat(registry.get(MicrometerKpis.OWNED).tags("kind", "scheduler").gauge().value()).isEqualTo(1.0);
        assertThat(registry.get(MicrometerKpis.OWNED).tags("kind", "pool").gauge().value()).isEqualTo(1.0);
        assertThat(counter(MicrometerKpis.OWNERSHIP_CHANGES, "kind", "scheduler", "change", "acquired")).isEqualTo(2.0);
        assertThat(counter(MicrometerKpis.OWNERSHIP_CHANGES, "kind", "scheduler", "change", "handed_over")).isEqualTo(1.0);
        Timer reown = registry.get(MicrometerKpis.REOWN_WAIT).tags("kind", "scheduler").timer();
        assertThat(reown.count()).isEqualTo(2);
        assertThat(reown.max(TimeUnit.SECONDS)).isEqualTo(18.0);
        kpis.lost("pool", "ci");
        assertThat(registry.get(MicrometerKpis.OWNED).tags("kind", "pool").gauge().value()).isZero();
    }

    @Test
    void claimOutcomesAreCountedPerPoolAndOutcome() {
        kpis.claimEnded("ci", "a", ClaimOutcome.SERVED_HOT);
        kpis.claimEnded("ci", "b", ClaimOutcome.SERVED_HOT);
        kpis.claimEnded("ci", "c", ClaimOutcome.EXPIRED);
        kpis.claimEnded("gpu", "d", ClaimOutcome.WITHDRAWN);

        assertThat(counter(MicrometerKpis.CLAIM_OUTCOMES, "pool", "ci", "outcome", "served_hot")).isEqualTo(2.0);
        assertThat(counter(MicrometerKpis.CLAIM_OUTCOMES, "pool", "ci", "outcome", "expired")).isEqualTo(1.0);
        assertThat(counter(MicrometerKpis.CLAIM_OUTCOMES, "pool", "gpu", "outcome", "withdrawn")).isEqualTo(1.0);
        assertThat(registry.find(MicrometerKpis.CLAIM_OUTCOMES).counters()).hasSize(3);
    }

    @Test
    void membersPerStateAreGaugesThatFollowTheLatestSnapshot() {
        Map<MemberState, Integer> counts = new EnumMap<>(MemberState.class);
        for (MemberState s : MemberState.values()) {
            counts.put(s, 0);
        }
        counts.put(MemberState.RUNNING, 2);
        counts.put(MemberState.HIBERNATED, 5);
        kpis.membersPerState("ci", counts);
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "ci", "state", "running")).isEqualTo(2.0);
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "ci", "state", "hibernated")).isEqualTo(5.0);
        assertThat(registry.get(MicrometerKpis.MEMBERS).tags("pool", "ci").gauges()).hasSize(MemberState.values().length);

        counts.put(MemberState.RUNNING, 0);
        counts.put(MemberState.CLAIMED, 2);
        kpis.membersPerState("ci", counts);
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "ci", "state", "running")).isEqualTo(0.0);
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "ci", "state", "claimed")).isEqualTo(2.0);
    }

    @Test
    void fleetRoomsAreCountedPerSchedulerAndRoomStatus() {
        kpis.roomsPerStatus("pong", new RoomStatusCounts(1, 3, 4, 2));

        assertThat(gauge(MicrometerKpis.FLEET_ROOMS, "scheduler", "pong", "status", "creating")).isEqualTo(1.0);
        assertThat(gauge(MicrometerKpis.FLEET_ROOMS, "scheduler", "pong", "status", "ready")).isEqualTo(3.0);
        assertThat(gauge(MicrometerKpis.FLEET_ROOMS, "scheduler", "pong", "status", "occupied")).isEqualTo(4.0);
        assertThat(gauge(MicrometerKpis.FLEET_ROOMS, "scheduler", "pong", "status", "terminating")).isEqualTo(2.0);
        assertThat(registry.find(MicrometerKpis.FLEET_ROOMS).tags("status", "terminated").gauge()).isNull();
        assertThat(registry.find(MicrometerKpis.FLEET_ROOMS).tagKeys("pool").gauges()).isEmpty();
    }

    @Test
    void fleetRoomsAreStillMembersTaggedPoolForOneRelease() {
        kpis.roomsPerStatus("pong", new RoomStatusCounts(1, 3, 4, 2));

        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "pong", "state", "creating")).isEqualTo(1.0);
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "pong", "state", "ready")).isEqualTo(3.0);
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "pong", "state", "occupied")).isEqualTo(4.0);
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "pong", "state", "terminating")).isEqualTo(2.0);
        assertThat(registry.find(MicrometerKpis.MEMBERS).tags("state", "terminated").gauge()).isNull();
    }

    @Test
    void scaleOperationsCountOperationsAndMembers() {
        kpis.scaled("pong", ScaleOperation.SCALE_UP, 3);
        kpis.scaled("pong", ScaleOperation.SCALE_UP, 2);
        kpis.scaled("ci", ScaleOperation.DELETE, 1);

        assertThat(counter(MicrometerKpis.SCALE_OPERATIONS, "pool", "pong", "operation", "scale-up")).isEqualTo(2.0);
        assertThat(counter(MicrometerKpis.SCALE_MEMBERS, "pool", "pong", "operation", "scale-up")).isEqualTo(5.0);
        assertThat(counter(MicrometerKpis.SCALE_OPERATIONS, "pool", "ci", "operation", "delete")).isEqualTo(1.0);
    }

    @Test
    void aSchedulersScalesAreCountedUnderTheSchedulerAndForOneReleaseUnderThePool() {
        kpis.roomsScaled("pong", ScaleOperation.SCALE_UP, 3);
        kpis.roomsScaled("pong", ScaleOperation.SCALE_UP, 2);
        kpis.roomsScaled("pong", ScaleOperation.DELETE, 1);

        assertThat(counter(MicrometerKpis.FLEET_SCALE_OPERATIONS, "scheduler", "pong", "operation", "scale-up")).isEqualTo(2.0);
        assertThat(counter(MicrometerKpis.FLEET_SCALE_ROOMS, "scheduler", "pong", "operation", "scale-up")).isEqualTo(5.0);
        assertThat(counter(MicrometerKpis.FLEET_SCALE_OPERATIONS, "scheduler", "pong", "operation", "delete")).isEqualTo(1.0);
        assertThat(counter(MicrometerKpis.SCALE_OPERATIONS, "pool", "pong", "operation", "scale-up")).isEqualTo(2.0);
        assertThat(counter(MicrometerKpis.SCALE_MEMBERS, "pool", "pong", "operation", "scale-up")).isEqualTo(5.0);
        // A pool's scale is no scheduler's.
        kpis.scaled("ci", ScaleOperation.CREATE, 4);
        assertThat(registry.find(MicrometerKpis.FLEET_SCALE_OPERATIONS).tags("scheduler", "ci").counter()).isNull();
    }

    @Test
    void aRemovedSchedulerLeavesNoMeterAndAnotherKeepsItsOwn() {
        for (String scheduler : List.of("gone", "kept")) {
            kpis.roomsPerStatus(scheduler, new RoomStatusCounts(1, 3, 4, 2));
            kpis.roomsScaled(scheduler, ScaleOperation.SCALE_UP, 2);
            kpis.lockWaited(LockId.of(scheduler, LockKind.CONFIG), LockOutcome.ACQUIRED, Duration.ofMillis(5));
            kpis.leaseLost(LockId.of(scheduler, LockKind.CONFIG));
        }
        kpis.schedulerRemoved("gone");

        assertThat(registry.getMeters()).noneMatch(m -> "gone".equals(m.getId().getTag("pool")) || "gone".equals(m.getId().getTag("scheduler")));
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "kept", "state", "ready")).isEqualTo(3.0);
        assertThat(gauge(MicrometerKpis.FLEET_ROOMS, "scheduler", "kept", "status", "ready")).isEqualTo(3.0);
        assertThat(counter(MicrometerKpis.FLEET_SCALE_ROOMS, "scheduler", "kept", "operation", "scale-up")).isEqualTo(2.0);
        assertThat(counter(MicrometerKpis.LEASE_LOSSES, "scheduler", "kept", "kind", "config")).isEqualTo(1.0);
        // Made again later, its meters start afresh.
        kpis.roomsPerStatus("gone", new RoomStatusCounts(0, 1, 0, 0));
        assertThat(gauge(MicrometerKpis.MEMBERS, "pool", "gone", "state", "ready")).isEqualTo(1.0);
        assertThat(gauge(MicrometerKpis.FLEET_ROOMS, "scheduler", "gone", "status", "ready")).isEqualTo(1.0);
    }

    @Test
    void lockWaitsAreTimedPerKindAndOutcomeAndLeaseLossesCounted() {
        LockId downscale = LockId.of("pong", LockKind.DOWNSCALE);
        kpis.lockWaited(downscale, LockOutcome.ACQUIRED, Duration.ofMillis(3550));
        kpis.lockWaited(downscale, LockOutcome.TIMED_OUT, Duration.ofSeconds(60));
        kpis.leaseLost(downscale);
        kpis.leaseLost(downscale);

        Timer acquired = registry.get(MicrometerKpis.LOCK_WAIT).tags("scheduler", "pong", "kind", "downscale", "outcome", "acquired").timer();
        assertThat(acquired.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3550.0);
        assertThat(registry.get(MicrometerKpis.LOCK_WAIT).tags("outcome", "timed-out").timer().count()).isEqualTo(1);
        assertThat(counter(MicrometerKpis.LEASE_LOSSES, "scheduler", "pong", "kind", "downscale")).isEqualTo(2.0);
    }

    @Test
    void rolloutProgressIsTargetsDoneAndTotalAndAOneHotPhase() {
        kpis.rolloutProgress("r1", new RolloutProgress(Phase.NODES, 1, 6));
        kpis.rolloutProgress("r1", new RolloutProgress(Phase.DEVICES, 4, 6));

        assertThat(gauge(MicrometerKpis.ROLLOUT_TARGETS, "rollout", "r1", "state", "done")).isEqualTo(4.0);
        assertThat(gauge(MicrometerKpis.ROLLOUT_TARGETS, "rollout", "r1", "state", "total")).isEqualTo(6.0);
        assertThat(gauge(MicrometerKpis.ROLLOUT_PHASE, "rollout", "r1", "phase", "devices")).isEqualTo(1.0);
        assertThat(gauge(MicrometerKpis.ROLLOUT_PHASE, "rollout", "r1", "phase", "nodes")).isEqualTo(0.0);
        assertThat(registry.get(MicrometerKpis.ROLLOUT_PHASE).gauges().stream().mapToDouble(g -> g.value()).sum()).isEqualTo(1.0);
    }

    @Test
    void theSizersRunningCountIsAGaugeTaggedWithWhetherItIsApplied() {
        kpis.sizingDecided("ci", decision(3), true);
        kpis.sizingDecided("ci", decision(4), true);
        kpis.sizingDecided("nightly", decision(2), false);

        assertThat(gauge(MicrometerKpis.SIZER_RUNNING_COUNT, "pool", "ci", "applied", "true")).isEqualTo(4.0);
        assertThat(gauge(MicrometerKpis.SIZER_RUNNING_COUNT, "pool", "nightly", "applied", "false")).isEqualTo(2.0);
        assertThat(registry.find(MicrometerKpis.SIZER_RUNNING_COUNT).gauges()).hasSize(2);
    }

    private static dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision decision(int runningCount) {
        return new dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision(runningCount, runningCount, true, runningCount + 2,
                new dev.hotspare.pool.sizing.HotSpareSizer.DemandForecast(0.001, 0.001, 0.001), Duration.ofMinutes(5),
                Duration.ofMinutes(40), java.util.Optional.empty(), "test",
                dev.hotspare.pool.sizing.HotSpareSizer.SizingDecision.Basis.FORECAST);
    }

    @Test
    void commonTagsAreOnEveryMeter() {
        MicrometerKpis tagged = new MicrometerKpis(registry, Tags.of("source", "simulation"));
        tagged.claimServed("ci", ClaimService.HOT, Duration.ZERO);
        tagged.scaled("ci", ScaleOperation.CREATE, 1);

        assertThat(registry.getMeters()).isNotEmpty()
                .allSatisfy(m -> assertThat(m.getId().getTag("source")).isEqualTo("simulation"));
    }

    @Test
    void aSimulationBoundToMicrometerCountsWhatItsReportSays() {
        SimulationSettings settings = new SimulationSettings(PoolSpec.builder("ci").size(6).runningCount(1).build(),
                Duration.ofMinutes(40), Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(1));
        List<ClaimArrival> trace = ClaimTraces.poisson(4, Instant.parse("2026-01-05T00:00:00Z"), Duration.ofDays(2),
                Duration.ofHours(1), 3);

        SimulationReport report = PoolSimulation.run(settings, trace, kpis);

        assertThat(counter(MicrometerKpis.CLAIMS_SERVED, "pool", "ci", "service", "hot")).isEqualTo(report.servedHot());
        assertThat(registry.find(MicrometerKpis.CLAIMS_SERVED).tags("service", "warm").counters().stream()
                .mapToDouble(c -> c.count()).sum()).isEqualTo(report.servedWarm());
        assertThat(registry.get(MicrometerKpis.CLAIM_WAIT).timers().stream().mapToLong(Timer::count).sum())
                .isEqualTo(report.served());
        assertThat(counter(MicrometerKpis.SCALE_MEMBERS, "pool", "ci", "operation", "create")).isPositive();
    }
}
