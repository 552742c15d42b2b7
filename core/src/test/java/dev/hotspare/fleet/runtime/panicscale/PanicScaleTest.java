package dev.hotspare.fleet.runtime.panicscale;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.RoomService;
import dev.hotspare.fleet.runtime.internal.FleetParts;
import dev.hotspare.json.Documents;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * Panic scale: a room that just became occupied records the panic input; the scheduler's watcher, woken at once,
 * decides on its tick's counts and scales once.
 */
class PanicScaleTest {

    private final VirtualTimeScheduler tasks = VirtualTimeScheduler.startingAt2026();
    private final InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
    private final InMemoryRoomStatusStore rooms = new InMemoryRoomStatusStore();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(tasks).build();
    private final LockManager locks = LockManager.builder().lockStore(new InMemoryLockStore(tasks.clock())).scheduler(tasks).build();

    @Test
    void concurrentOccupiedReportsRecordOnePanicInputAndTheWatcherScalesOnce() {
        String yaml = """
                name: pong
                game: pong
                image: i
                autoscaling:
                  min: 1
                  enablePanicScale: true
                  up:
                    metricsTrigger:
                      - type: room
                        usage: 50
                        threshold: 80
                        time: 60
                        limit: 70
                """;
        schedulers.create("pong", ConfigDocument.of(yaml), "in-sync", tasks.now());
        Fleet fleet = Fleet.builder().scheduler(tasks).schedulerStore(schedulers).roomStatusStore(rooms).memberDriver(driver)
                .build().start();
        RoomService service = fleet.rooms();
        for (int i = 0; i < 4; i++) {
            service.report("pong", "r" + i, "ready", tasks.now());
        }
        service.report("pong", "r0", "occupied", tasks.now().plusMillis(1));
        service.report("pong", "r1", "occupied", tasks.now().plusMillis(1));
        service.report("pong", "r2", "occupied", tasks.now().plusMillis(2));
        service.report("pong", "r3", "occupied", tasks.now().plusMillis(2));
        int before = driver.list("pong").size();
        assertThat(schedulers.loadScaleInputs("pong").inputs().panicAt()).as("recorded once for both reports").isPresent();
        assertThat(before).as("a report changes no room").isZero();
        int expected = new FleetPlanner(Autoscaler.standard())
                .panic(SchedulerConfigs.parse(yaml, Documents.Format.YAML), rooms.counts("pong"), tasks.now()).orElseThrow().count();

        tasks.runDueTasks();

        assertThat(driver.list("pong")).as("the woken watcher decided on the fresh counts, once").hasSize(before + expected);
        assertThat(schedulers.get("pong").orElseThrow().lastScaleAt()).isPresent();
        assertThat(schedulers.loadScaleInputs("pong").inputs().panicAt()).as("answered").isEmpty();
        tasks.advanceBy(java.time.Duration.ofSeconds(1));
        assertThat(driver.list("pong")).hasSize(before + expected);
        fleet.close();
    }

    @Test
    void onlyARoomThatJustBecameOccupiedReadsTheSchedulerForPanicScale() {
        schedulers.create("pong", ConfigDocument.of("""
                name: pong
                game: pong
                image: i
                autoscaling:
                  min: 1
                """), "in-sync", tasks.now());
        java.util.concurrent.atomic.AtomicInteger parses = new java.util.concurrent.atomic.AtomicInteger();
        RoomService service = FleetParts.rooms(rooms, schedulers, driver, locks, Autoscaler.standard(),
                EventDispatcher.builder().build(), tasks, doc -> {
                    parses.incrementAndGet();
                    return SchedulerConfigs.parse(doc.submitted(), Documents.Format.YAML);
                });
        service.report("pong", "r0", "ready", tasks.now());
        service.report("pong", "r1", "ready", tasks.now());
        assertThat(parses).as("ready reports never look at panic scale").hasValue(0);

        service.report("pong", "r0", "occupied", tasks.now().plusMillis(1));
        assertThat(parses).as("r0 became occupied").hasValue(1);
        for (int keepAlive = 2; keepAlive < 12; keepAlive++) {
            service.report("pong", "r0", "occupied", tasks.now().plusMillis(keepAlive));
        }
        assertThat(parses).as("occupied keep-alives").hasValue(1);

        service.report("pong", "r1", "occupied", tasks.now().plusMillis(20));
        assertThat(parses).as("r1 became occupied: same version, parsed config reused").hasValue(1);
    }
}
