package dev.hotspare.sim;

import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Claim.ClaimService;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.PoolSimulation.SimulationReport;
import dev.hotspare.sim.PoolSimulation.SimulationSettings;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The simulator reports the same KPIs as a live pool fed the same trace. */
class SimulationKpisTest {

    static final Instant START = Instant.parse("2026-01-05T00:00:00Z");
    static final SimulationSettings SETTINGS = new SimulationSettings(PoolSpec.builder("ci").size(4).runningCount(1).build(),
            Duration.ofMinutes(40), Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(1));

    @Test
    void aSimulatedAndALivePoolFedTheSameTraceServeTheSameHotWarmAndColdCounts() {
        List<ClaimArrival> trace = ClaimTraces.poisson(6, START, Duration.ofDays(2), Duration.ofMinutes(50), 11);
        RecordingKpis simulated = new RecordingKpis();
        SimulationReport report = PoolSimulation.run(SETTINGS, trace, simulated);

        RecordingKpis live = new RecordingKpis();
        replayOnALivePool(trace, live);

        Map<ClaimService, Long> served = simulated.servedCounts();
        assertThat(served.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(trace.size());
        assertThat(served.get(ClaimService.HOT)).as("a mix, not one kind").isPositive();
        assertThat(served.get(ClaimService.WARM) + served.get(ClaimService.COLD)).isPositive();
        assertThat(live.servedCounts()).isEqualTo(served);
        assertThat(served).containsEntry(ClaimService.HOT, (long) report.servedHot())
                .containsEntry(ClaimService.WARM, (long) report.servedWarm())
                .containsEntry(ClaimService.COLD, (long) report.servedCold());
        assertThat(live.calls(RecordingKpis.Served.class)).extracting(RecordingKpis.Served::waited)
                .isEqualTo(simulated.calls(RecordingKpis.Served.class).stream().map(RecordingKpis.Served::waited).toList());
    }

    /**
     * A live pool as a user would run one: the controller on a scheduler and a driver, claims made at their
     * arrival and released after their hold. Started the same warm-up ahead of the first claim as the simulator.
     */
    private static void replayOnALivePool(List<ClaimArrival> trace, RecordingKpis kpis) {
        Instant start = trace.get(0).at().minus(SETTINGS.installTime()).minus(SETTINGS.resumeTime()).minus(Duration.ofMinutes(10));
        VirtualTimeScheduler time = new VirtualTimeScheduler(new VirtualClock(start));
        InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(SETTINGS.installTime())
                .resumeTime(SETTINGS.resumeTime()).hibernateTime(SETTINGS.hibernateTime()).build();
        PoolController controller = PoolController.builder(SETTINGS.spec()).memberDriver(driver).claimStore(new InMemoryClaimStore())
                .scheduler(time).resyncPeriod(SETTINGS.resyncPeriod()).listener(kpis).build().start();
        for (int i = 0; i < trace.size(); i++) {
            ClaimArrival arrival = trace.get(i);
            String name = "job-" + i;
            time.schedule(Duration.between(start, arrival.at()), () -> {
                ClaimHandle handle = controller.claim(name);
                handle.member().thenRun(() -> time.schedule(arrival.hold(), () -> controller.release(handle)));
            });
        }
        time.advanceTo(trace.get(trace.size() - 1).at().plus(Duration.ofHours(3)));
        controller.close();
    }
}
