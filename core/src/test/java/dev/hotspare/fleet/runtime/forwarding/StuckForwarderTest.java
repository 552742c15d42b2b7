package dev.hotspare.fleet.runtime.forwarding;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.EventForwarder;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.runtime.RoomService;
import dev.hotspare.fleet.runtime.internal.FleetParts;
import dev.hotspare.json.Documents;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Room events go to the forwarders on their own executor: a stuck or failing forwarder never slows or fails a ping. */
class StuckForwarderTest {

    private final VirtualTimeScheduler tasks = VirtualTimeScheduler.startingAt2026();
    private final InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
    private final InMemoryRoomStatusStore rooms = new InMemoryRoomStatusStore();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(tasks).build();
    private final LockManager locks = LockManager.builder().lockStore(new InMemoryLockStore(tasks.clock())).scheduler(tasks).build();

    private RoomService service(EventDispatcher events) {
        return FleetParts.rooms(rooms, schedulers, driver, locks, Autoscaler.standard(), events, tasks,
                doc -> SchedulerConfigs.parse(doc.submitted(), Documents.Format.YAML));
    }

    @Test
    void aStuckForwarderNeitherSlowsNorFailsPings() throws Exception {
        schedulers.create("pong", ConfigDocument.of("name: pong\ngame: pong\nimage: i\n"), "in-sync", tasks.now());
        CountDownLatch stuck = new CountDownLatch(1);
        List<String> delivered = new CopyOnWriteArrayList<>();
        EventForwarder slow = new EventForwarder() {
            public String name() {
                return "slow";
            }

            public void forward(FleetEvent event) throws Exception {
                stuck.await();
                delivered.add(event.room().orElseThrow() + ":" + event.type());
            }
        };
        EventForwarder failing = new EventForwarder() {
            public String name() {
                return "failing";
            }

            public void forward(FleetEvent event) {
                throw new IllegalStateException("matchmaker down");
            }
        };
        try (EventDispatcher events = EventDispatcher.builder().add(slow).add(failing, true).build()) {
            RoomService service = service(events);

            for (int i = 0; i < 500; i++) {
                String room = "room-" + i;
                service.report("pong", room, "ready", tasks.now());
                service.report("pong", room, "occupied", tasks.now().plusMillis(1));
            }

            // Every ping returned and was recorded while the forwarder has not delivered a single event.
            assertThat(delivered).isEmpty();
            assertThat(rooms.counts("pong").occupied()).isEqualTo(500);
            stuck.countDown();
            await().atMost(1, TimeUnit.MINUTES).until(() -> delivered.size() == 1000);
            assertThat(delivered).startsWith("room-0:ROOM_READY", "room-0:ROOM_OCCUPIED");
        }
    }
}
