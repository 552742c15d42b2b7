package dev.hotspare.examples.snippets;

import dev.hotspare.examples.poolservice.CommandParser;
import dev.hotspare.examples.poolservice.PoolService;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.kpi.KpiListener;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.runtime.PoolListener;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.rollout.runtime.RolloutController;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.sim.ClaimTraces.ClaimArrival;
import dev.hotspare.sim.PoolSimulation;
import dev.hotspare.sim.PoolSimulation.SimulationSettings;
import dev.hotspare.time.TaskScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The snippets of docs/kpis.md and docs/pool-service.md; compiled, the names they use are parameters. */
final class ListenerSnippets {

    private ListenerSnippets() {
    }

    static void kpis(PoolSpec spec, MemberDriver driver, ClaimStore claims, TaskScheduler tasks, LockStore lockStore,
                     SchedulerStore schedulers, RoomStatusStore rooms, UsageHistory usage, SchedulerStore schedulerStore,
                     RolloutStore store, RolloutAgentChannel channel, SimulationSettings settings, List<ClaimArrival> trace) {
        // snippet: docs/kpis.md
        MeterRegistry registry = new SimpleMeterRegistry();  // or Prometheus, OTLP, ...
        KpiListener kpis = new MicrometerKpis(registry);     // or your own KpiListener, or KpiListener.all(a, b)

        PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(tasks).listener(kpis).build();
        LockManager locks = LockManager.builder().lockStore(lockStore).scheduler(tasks).listener(kpis).build();
        Fleet.builder().scheduler(tasks).listener(kpis).build();   // rooms, scales, its locks and its ownership
        RolloutController.builder("r1").store(store).channel(channel).scheduler(tasks).listener(kpis).build();
        PoolSimulation.run(settings, trace, kpis);           // the simulator, same listener
        // end snippet
    }

    static void poolService(PoolSpec spec, MemberDriver driver, ClaimStore claimStore, TaskScheduler scheduler,
                            PoolListener myPoolListener) {
        // snippet: docs/pool-service.md
        PoolService service = PoolService.builder(spec, driver, claimStore, scheduler, new PrintWriter(System.out, true))
                .listener(myPoolListener)                       // any dev.hotspare.pool.runtime.PoolListener: KPIs, logs
                .script(new PoolService.Script(5, Duration.ofSeconds(2), Optional.empty()))   // optional
                .build().start();
        service.handle(CommandParser.parse("claim pr-1 30m").orElseThrow());
        service.finished().join();                               // script done, or quit
        // end snippet
    }
}
