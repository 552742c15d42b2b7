package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.runtime.FleetListener;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.time.Duration;
import java.util.function.Function;
import java.util.function.Predicate;

/** Everything a {@link Worker}'s watchers share. */
public record WorkerContext(SchedulerStore schedulers, RoomStatusStore rooms, UsageHistory usageHistory, UsageMetrics usageMetrics,
                     MemberDriver driver, LockManager locks, TaskScheduler tasks, FleetPlanner planner, RoomActions actions,
                     EventDispatcher events, Function<ConfigDocument, SchedulerConfig> parser,
                     Duration replaceTimeout, Duration pollInterval, Duration pingTimeout, ClassLoader plugins,
                     FleetListener listener, Duration allocationTimeout, Predicate<String> owns) {

    public SchedulerConfig parse(ConfigDocument config) {
        return parser.apply(config);
    }

    /** Whether this instance may act on {@code scheduler} now (always, unless the fleet divides work by ownership). */
    public boolean ownsNow(String scheduler) {
        return owns.test(scheduler);
    }

    /** The watchers' tick period: the autoscaler's. */
    public Duration period() {
        return planner.autoscaler().settings().period();
    }
}
