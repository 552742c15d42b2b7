package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/** Everything a {@link Worker}'s watchers share. */
record WorkerContext(SchedulerStore schedulers, RoomStatusStore rooms, UsageHistory usageHistory, UsageMetrics usageMetrics,
                     MemberDriver driver, LockManager locks, TaskScheduler tasks, Autoscaler autoscaler,
                     EventDispatcher events, Function<ConfigDocument, SchedulerConfig> parser,
                     Duration replaceTimeout, Duration pollInterval, Duration pingTimeout, ClassLoader plugins,
                     FleetListener kpis) {

    SchedulerConfig parse(ConfigDocument config) {
        return parser.apply(config);
    }

    /** Completes when none of {@code rooms} is listed by the driver any more, or the replace timeout passed. */
    CompletableFuture<Void> waitUntilGone(String scheduler, List<String> rooms) {
        return MembersGone.await(driver, tasks, pollInterval, scheduler, rooms, tasks.clock().instant().plus(replaceTimeout));
    }
}
