package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.memory.InMemoryUsageHistory;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several fleet instances over one set of stores divide the schedulers between them: the load on the shared stores
 * stays that of one instance, every scheduler keeps its rooms, and a dead instance's schedulers are re-owned within
 * twice the lease TTL with never two instances acting on one scheduler. Virtual time; in-memory stores behind
 * proxies that count every call (and can be cut, for an instance that dies).
 */
class ScaleOutTest {

    private static final int SCHEDULERS = 200;
    private static final Duration TTL = Duration.ofSeconds(15);
    private static final Duration HEARTBEAT = Duration.ofSeconds(5);
    private static final List<String> NAMES = IntStream.range(0, SCHEDULERS).mapToObj(i -> "game-" + i).toList();

    private final VirtualTimeScheduler time = TaskScheduler.virtual(Instant.parse("2026-01-05T00:00:00Z"));
    private final SchedulerStore schedulers = new InMemorySchedulerStore();
    private final RoomStatusStore rooms = new InMemoryRoomStatusStore();
    private final UsageHistory usage = new InMemoryUsageHistory();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofSeconds(20)).build();
    private final LockStore locks = new InMemoryLockStore(time.clock());
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong creates = new AtomicLong();
    /** The rooms' own traffic (pings) goes through an API that is not counted: it grows with rooms, not instances. */
    private final Fleet roomsApi = Fleet.builder().scheduler(time).schedulerStore(schedulers).roomStatusStore(rooms).memberDriver(driver).build();

    /** One instance: its fleet and the switch that cuts it off from every store. */
    private record Instance(Fleet fleet, AtomicBoolean cut) {
    }

    @SuppressWarnings("unchecked")
    private <T> T counted(Class<T> port, T store, AtomicBoolean cut) {
        return (T) Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[]{port}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return method.invoke(store, args);
            }
            if (cut.get()) {
                throw new StoreUnavailableException(port.getSimpleName(), "the instance is dead");
            }
            calls.incrementAndGet();
            if (port == MemberDriver.class && method.getName().equals("create")) {
                creates.incrementAndGet();
            }
            try {
                return method.invoke(store, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    private Instance instance(String id) {
        AtomicBoolean cut = new AtomicBoolean();
        Fleet fleet = Fleet.builder().scheduler(time)
                .schedulerStore(counted(SchedulerStore.class, schedulers, cut))
                .roomStatusStore(counted(RoomStatusStore.class, rooms, cut))
                .usageHistory(counted(UsageHistory.class, usage, cut))
                .memberDriver(counted(MemberDriver.class, driver, cut))
                .lockStore(counted(LockStore.class, locks, cut))
                .instanceId(id).ownershipLeaseTtl(TTL).ownershipHeartbeat(HEARTBEAT)
                .build();
        return new Instance(fleet, cut);
    }

    private List<Instance> startInstances(int count) {
        for (String name : NAMES) {
            roomsApi.operations().create("name: " + name + "\ngame: g\nimage: g:1\nautoscaling: {min: 2}\n");
        }
        List<Instance> instances = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            instances.add(instance("fleet-" + i));
        }
        instances.forEach(instance -> instance.fleet().start());
        return instances;
    }

    private static long acting(List<Instance> instances, String scheduler) {
        return instances.stream().filter(i -> !i.cut().get())
                .filter(i -> i.fleet().ownedSchedulers().orElseThrow().fence(scheduler).isPresent()).count();
    }

    /** Advances second by second; at each second no scheduler has two instances acting. Returns when all were owned. */
    private Optional<Instant> advanceChecking(List<Instance> instances, Duration span) {
        Optional<Instant> allOwned = Optional.empty();
        for (long s = 0; s < span.toSeconds(); s++) {
            time.advanceBy(Duration.ofSeconds(1));
            if (time.now().getEpochSecond() % 10 == 0) {
                pingEveryRoom();
            }
            int owned = 0;
            for (String name : NAMES) {
                long acting = acting(instances, name);
                assertThat(acting).as("instances acting on %s at %s", name, time.now()).isLessThanOrEqualTo(1);
                owned += (int) acting;
            }
            if (owned == SCHEDULERS && allOwned.isEmpty()) {
                allOwned = Optional.of(time.now());
            }
        }
        return allOwned;
    }

    private void pingEveryRoom() {
        for (String name : NAMES) {
            FleetPlanner.liveRooms(driver.list(name)).forEach(room -> roomsApi.rooms().report(name, room.id(), "ready", time.now()));
        }
    }

    private double callsPerSchedulerMinute(int instanceCount) {
        List<Instance> instances = startInstances(instanceCount);
        advanceChecking(instances, Duration.ofMinutes(2));          // warm-up: every scheduler owned, rooms created
        calls.set(0);
        advanceChecking(instances, Duration.ofMinutes(10));
        double perSchedulerMinute = calls.get() / (double) SCHEDULERS / 10;
        for (String name : NAMES) {
            assertThat(FleetPlanner.liveRooms(driver.list(name))).as("rooms of %s", name).hasSize(2);
        }
        instances.forEach(i -> i.fleet().close());
        return perSchedulerMinute;
    }

    @Test
    void eightInstancesPutNoMoreLoadOnTheStoresThanOne() {
        Map<Integer, Double> perSchedulerMinute = new LinkedHashMap<>();
        Map<Integer, Long> created = new LinkedHashMap<>();
        for (int n : new int[]{1, 2, 4, 8}) {
            ScaleOutTest run = new ScaleOutTest();
            perSchedulerMinute.put(n, run.callsPerSchedulerMinute(n));
            created.put(n, run.creates.get());
        }
        System.out.println("store calls per scheduler-minute by instances: " + perSchedulerMinute);
        assertThat(perSchedulerMinute.get(8)).as("%s", perSchedulerMinute).isLessThanOrEqualTo(1.15 * perSchedulerMinute.get(1));
        assertThat(perSchedulerMinute.get(4)).as("%s", perSchedulerMinute).isLessThanOrEqualTo(1.15 * perSchedulerMinute.get(1));
        assertThat(created).as("rooms created: each scheduler's two, by one instance, whatever the count")
                .containsOnly(Map.entry(1, 400L), Map.entry(2, 400L), Map.entry(4, 400L), Map.entry(8, 400L));
    }

    @Test
    void aDeadInstancesSchedulersAreReOwnedWithinTwiceTheTtlAndNeverByTwo() {
        List<Instance> instances = startInstances(4);
        advanceChecking(instances, Duration.ofMinutes(2));
        Instance dead = instances.get(1);
        List<String> itsSchedulers = dead.fleet().ownedSchedulers().orElseThrow().owned();
        assertThat(itsSchedulers).hasSizeGreaterThan(20);
        dead.cut().set(true);                                    // the process stops: no renewal, no clean shutdown
        Instant killedAt = time.now();

        Optional<Instant> reOwned = advanceChecking(instances, TTL.multipliedBy(3));

        assertThat(reOwned).isPresent();
        assertThat(Duration.between(killedAt, reOwned.get())).isLessThanOrEqualTo(TTL.multipliedBy(2));
        advanceChecking(instances, Duration.ofMinutes(1));
        for (String name : itsSchedulers) {
            assertThat(instances.stream().filter(i -> i != dead).anyMatch(i -> i.fleet().worker().watched().contains(name)))
                    .as("a live instance watches %s", name).isTrue();
            assertThat(FleetPlanner.liveRooms(driver.list(name))).as("rooms of %s", name).hasSize(2);
        }
        assertThat(creates.get()).as("no room created twice").isEqualTo(2L * SCHEDULERS);
    }

    @Test
    void anInstanceThatClosesHandsItsSchedulersOverAtOnce() {
        List<Instance> instances = startInstances(2);
        advanceChecking(instances, Duration.ofMinutes(1));
        instances.get(0).fleet().close();
        Instant closedAt = time.now();
        Optional<Instant> reOwned = advanceChecking(instances.subList(1, 2), TTL);
        assertThat(reOwned).isPresent();
        assertThat(Duration.between(closedAt, reOwned.get())).isLessThanOrEqualTo(HEARTBEAT);
        advanceChecking(instances.subList(1, 2), Duration.ofSeconds(30));
        assertThat(instances.get(1).fleet().worker().watched()).hasSize(SCHEDULERS);
    }

    @Test
    void aReleaseInFlightMovesWithItsSchedulerAndTheNewOwnerFinishesIt() {
        roomsApi.operations().create("name: pong\ngame: g\nimage: g:1\nmaxSurge: \"50%\"\nautoscaling: {min: 4, max: 4}\n");
        List<Instance> instances = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            instances.add(instance("fleet-" + i));
        }
        instances.forEach(instance -> instance.fleet().start());
        for (int s = 0; s < 60; s++) {
            secondWithReadyPings("pong");
        }
        assertThat(FleetPlanner.liveRooms(driver.list("pong"))).hasSize(4);
        Instance owner = instances.stream().filter(i -> i.fleet().ownedSchedulers().orElseThrow().fence("pong").isPresent())
                .findFirst().orElseThrow();
        Instance other = instances.stream().filter(i -> i != owner).findFirst().orElseThrow();

        owner.fleet().operations().updateImage("pong", Optional.of("g:2"));
        for (int s = 0; s < 3; s++) {
            time.advanceBy(Duration.ofSeconds(1));              // the new rooms have not reported ready yet
        }
        assertThat(schedulers.loadRelease("pong")).as("the release is in flight").map(r -> r.state().terminal()).contains(false);
        owner.cut().set(true);                                   // the owner dies mid-release

        for (int s = 0; s < 300; s++) {
            secondWithReadyPings("pong");
        }
        assertThat(other.fleet().ownedSchedulers().orElseThrow().fence("pong")).as("the survivor owns pong").isPresent();
        assertThat(schedulers.loadRelease("pong")).map(r -> r.state().phase())
                .contains(dev.hotspare.fleet.plan.ReleaseState.ReleasePhase.DEPLOYED);
        assertThat(FleetPlanner.liveRooms(driver.list("pong"))).extracting(dev.hotspare.pool.Member::templateVersion)
                .containsExactly("v2.0", "v2.0", "v2.0", "v2.0");
    }

    /** One second of virtual time, after which every room that has started reports ready, as game servers ping. */
    private void secondWithReadyPings(String scheduler) {
        time.advanceBy(Duration.ofSeconds(1));
        for (dev.hotspare.pool.Member room : FleetPlanner.liveRooms(driver.list(scheduler))) {
            if (room.phase() == dev.hotspare.pool.Member.MemberPhase.READY) {
                roomsApi.rooms().report(scheduler, room.id(), "ready", time.now());
            }
        }
    }
}
