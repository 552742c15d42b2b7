package dev.hotspare.fleet.runtime.panicscale;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.runtime.RoomService;
import dev.hotspare.json.Documents;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/** Panic scale: a room that just became occupied may scale the fleet up once, under the PANIC lock. */
class PanicScaleTest {

    private final VirtualTimeScheduler tasks = VirtualTimeScheduler.startingAt2026();
    private final InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
    private final InMemoryRoomStatusStore rooms = new InMemoryRoomStatusStore();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(tasks).build();
    private final LockManager locks = LockManager.builder().lockStore(new InMemoryLockStore(tasks.clock())).scheduler(tasks).build();

    private RoomService service(EventDispatcher events) {
        return new RoomService(rooms, schedulers, driver, locks, Autoscaler.standard(), events, tasks,
                doc -> SchedulerConfigs.parse(doc.submitted(), Documents.Format.YAML));
    }

    @Test
    void concurrentOccupiedReportsPanicScaleOnceUnderThePanicLock() {
        schedulers.create("pong", ConfigDocument.of("""
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
                """), "in-sync", tasks.now());
        EventDispatcher events = EventDispatcher.builder().build();
        RoomService service = service(events);
        for (int i = 0; i < 4; i++) {
            service.report("pong", "r" + i, "ready", tasks.now());
        }
        service.report("pong", "r0", "occupied", tasks.now().plusMillis(1));
        service.report("pong", "r1", "occupied", tasks.now().plusMillis(1));
        int before = driver.list("pong").size();

        service.report("pong", "r2", "occupied", tasks.now().plusMillis(2));

        assertThat(driver.list("pong").size()).isGreaterThan(before);
        assertThat(schedulers.get("pong").orElseThrow().lastScaleAt()).isPresent();
        events.close();
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
        RoomService service = new RoomService(rooms, schedulers, driver, locks, Autoscaler.standard(),
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
