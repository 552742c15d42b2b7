package dev.hotspare.fleet.runtime.kpis;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockListener.LockOutcome;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.internal.FleetParts;
import dev.hotspare.fleet.runtime.internal.Worker;
import dev.hotspare.kpi.RecordingKpis;
import dev.hotspare.kpi.RecordingKpis.LockWait;
import dev.hotspare.kpi.RecordingKpis.Rooms;
import dev.hotspare.kpi.RecordingKpis.Scaled;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.memory.InMemoryUsageHistory;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/** Scale operations and rooms per status reported by the fleet runtime, on virtual time. */
class FleetKpisTest {

    private static final String CONFIG = """
            name: pong
            game: pong
            image: pong/pong:v1
            autoscaling:
              min: 4
              max: 0
            """;

    private final VirtualTimeScheduler tasks = VirtualTimeScheduler.startingAt2026();
    private final InMemoryLockStore lockStore = new InMemoryLockStore(tasks.clock());
    private final InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
    private final InMemoryRoomStatusStore rooms = new InMemoryRoomStatusStore();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(tasks)
            .installTime(Duration.ofSeconds(20)).deleteTime(Duration.ofSeconds(5)).build();
    private final RecordingKpis kpis = new RecordingKpis();

    @Test
    void scaleUpAndScaleDownOperationsAreReportedWithTheirCounts() {
        LockManager locks = LockManager.builder().lockStore(lockStore).scheduler(tasks).build();
        SchedulerOperations ops = FleetParts.operations(schedulers, locks, driver, tasks).roomStatuses(rooms).build();
        ops.create(CONFIG);
        // The rooms never ping: a long ping timeout keeps the watcher from removing them as dead meanwhile.
        Worker worker = Worker.builder(schedulers, rooms, new InMemoryUsageHistory(), driver, locks, tasks).listener(kpis)
                .settings(dev.hotspare.fleet.runtime.FleetSettings.builder().pingTimeout(Duration.ofHours(1)).build()).build();
        worker.start();
        tasks.advanceBy(Duration.ofSeconds(30));
        kpis.clear();

        // 4 rooms (min 4) and 2 more: a manual scale-down of 2 reaches min (it never goes below it). The watcher
        // applies both requests, so their KPIs come from it.
        CompletableFuture<Integer> added = ops.scaleUp("pong", 2);
        tasks.advanceBy(Duration.ofSeconds(15));
        dev.hotspare.fleet.plan.FleetPlanner.liveRooms(driver.list("pong")).forEach(m -> rooms.update("pong", m.id(), dev.hotspare.fleet.RoomState.RoomStatus.READY, tasks.now()));
        CompletableFuture<Integer> removed = ops.scaleDown("pong", 3);
        tasks.advanceBy(Duration.ofSeconds(20));

        assertThat(added).isCompletedWithValue(2);
        assertThat(removed).isCompletedWithValue(2);
        assertThat(kpis.calls(Scaled.class)).containsExactly(new Scaled("pong", ScaleOperation.SCALE_UP, 2),
                new Scaled("pong", ScaleOperation.SCALE_DOWN, 2));
        worker.shutdown(Duration.ofMinutes(1));
    }

    @Test
    void theWatcherReportsItsScaleUpRoomsPerStatusAndItsLockWaits() {
        FleetParts.operations(schedulers, LockManager.builder().lockStore(lockStore).scheduler(tasks).build(), driver, tasks).build()
                .create(CONFIG);
        Worker worker = Worker.builder(schedulers, rooms, new InMemoryUsageHistory(), driver,
                LockManager.builder().lockStore(lockStore).scheduler(tasks).listener(kpis).build(), tasks).listener(kpis).build();
        worker.start();

        tasks.advanceBy(Duration.ofSeconds(30));

        assertThat(kpis.calls(Scaled.class)).as("the new scheduler's min rooms, once")
                .containsExactly(new Scaled("pong", ScaleOperation.SCALE_UP, 4));
        assertThat(kpis.calls(Rooms.class)).isNotEmpty()
                .allSatisfy(r -> assertThat(r.scheduler()).isEqualTo("pong"))
                .last().isEqualTo(new Rooms("pong", new RoomStatusCounts(4, 0, 0, 0)));
        assertThat(kpis.calls(LockWait.class)).isNotEmpty()
                .contains(new LockWait(LockId.of("pong", LockKind.TERMINATION), LockOutcome.ACQUIRED, Duration.ZERO));
        worker.shutdown(Duration.ofMinutes(1));
    }
}
