package dev.hotspare.fleet.runtime.locking;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.internal.FleetParts;
import dev.hotspare.fleet.runtime.internal.Worker;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.memory.InMemoryUsageHistory;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which locks each watcher step takes, in which order, and when it lets them go. */
class WatcherLocksTest {

    private final VirtualTimeScheduler tasks = VirtualTimeScheduler.startingAt2026();
    private final InMemoryLockStore lockStore = new InMemoryLockStore(tasks.clock());
    private final List<String> log = Collections.synchronizedList(new ArrayList<>());
    private final InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
    private final InMemoryRoomStatusStore rooms = new InMemoryRoomStatusStore();
    private final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(tasks)
            .installTime(Duration.ofSeconds(20)).deleteTime(Duration.ofSeconds(25)).build();
    private final LockManager locks = LockManager.builder().lockStore(recording()).scheduler(tasks).build();
    private final SchedulerOperations ops = FleetParts.operations(schedulers,
            LockManager.builder().lockStore(lockStore).scheduler(tasks).build(), driver, tasks).roomStatuses(rooms).build();
    private final Set<String> silent = new HashSet<>();

    private LockStore recording() {
        return new LockStore() {
            public Optional<Lease> tryAcquire(String key, Duration ttl) {
                Optional<Lease> lease = lockStore.tryAcquire(key, ttl);
                lease.ifPresent(l -> log.add(tasks.now().getEpochSecond() % 100_000 + " +" + kind(key)));
                return lease;
            }

            public Optional<Lease> renew(Lease lease, Duration ttl) {
                return lockStore.renew(lease, ttl);
            }

            public boolean release(Lease lease) {
                log.add(tasks.now().getEpochSecond() % 100_000 + " -" + kind(lease.key()));
                return lockStore.release(lease);
            }

            public Optional<Lease> inspect(String key) {
                return lockStore.inspect(key);
            }

            public List<Lease> list(String prefix) {
                return lockStore.list(prefix);
            }

            public boolean forceRelease(String key) {
                return lockStore.forceRelease(key);
            }
        };
    }

    private static String kind(String key) {
        return key.substring(key.lastIndexOf('.') + 1);
    }

    private List<String> kinds() {
        return log.stream().map(entry -> entry.substring(entry.indexOf(' ') + 1)).toList();
    }

    private Worker startWorker() {
        tasks.scheduleAtFixedRate(Duration.ofSeconds(10), Duration.ofSeconds(10), () -> {
            for (Member m : driver.list("pong")) {
                if (m.phase() == MemberPhase.READY && m.observedPower() == ObservedPower.RUNNING && !silent.contains(m.id())) {
                    rooms.update("pong", m.id(), RoomStatus.READY, tasks.now());
                }
            }
        });
        Worker worker = Worker.builder(schedulers, rooms, new InMemoryUsageHistory(), driver, locks, tasks).build();
        worker.start();
        return worker;
    }

    @Test
    void aNewSchedulerGetsItsMinRoomsUnderTermination() {
        ops.create("name: pong\ngame: pong\nimage: i\nautoscaling: {min: 3}\n");
        startWorker();

        tasks.advanceBy(Duration.ofSeconds(10));

        assertThat(kinds()).containsExactly("+termination", "-termination");
        assertThat(driver.list("pong")).hasSize(3);
        assertThat(schedulers.get("pong").orElseThrow().state()).isEqualTo("in-sync");
    }

    @Test
    void aScaleDownTakesTerminationThenDownscaleAndKeepsDownscaleUntilTheRoomsAreGone() {
        ops.create("name: pong\ngame: pong\nimage: i\nautoscaling: {min: 1, max: 5}\n");
        startWorker();
        tasks.advanceBy(Duration.ofMinutes(1));
        ops.scaleUp("pong", 3);
        tasks.advanceBy(Duration.ofMinutes(1));
        ops.updateMin("pong", Optional.of(1));
        log.clear();
        ops.update("pong", "name: pong\ngame: pong\nimage: i\nautoscaling: {min: 1, max: 2}\n");
        log.clear();

        tasks.advanceBy(Duration.ofSeconds(60));

        // One autoscale step: TERMINATION, then DOWNSCALE (in order), TERMINATION let go at the end of the step.
        assertThat(kinds()).startsWith("+termination", "+downscale", "-termination");
        // DOWNSCALE is kept until the removed rooms are gone (deleting takes 25 s here), across later ticks.
        assertThat(secondsBetween("+downscale", "-downscale")).isGreaterThanOrEqualTo(25);
        assertThat(driver.list("pong")).hasSize(2);
        assertThat(lockStore.list("")).isEmpty();
    }

    /** Seconds from the first log entry {@code from} to the first {@code to} after it. */
    private long secondsBetween(String from, String to) {
        List<String> entries = List.copyOf(log);
        int start = kinds().indexOf(from);
        int end = kinds().subList(start, entries.size()).indexOf(to) + start;
        assertThat(start).as("%s in %s", from, entries).isGreaterThanOrEqualTo(0);
        assertThat(end).as("%s in %s", to, entries).isGreaterThan(start);
        return Long.parseLong(entries.get(end).split(" ")[0]) - Long.parseLong(entries.get(start).split(" ")[0]);
    }

    @Test
    void deadRoomsGoUnderDownscaleHeldUntilTheyAreGone() {
        ops.create("name: pong\ngame: pong\nimage: i\nautoscaling: {min: 3}\n");
        startWorker();
        tasks.advanceBy(Duration.ofMinutes(1));
        silent.add(driver.list("pong").get(0).id());
        log.clear();

        tasks.advanceBy(Duration.ofSeconds(120));

        assertThat(kinds()).filteredOn(k -> k.endsWith("downscale")).startsWith("+downscale", "-downscale");
        assertThat(secondsBetween("+downscale", "-downscale")).as("held until the dead room is gone").isGreaterThanOrEqualTo(25);
        assertThat(driver.list("pong")).as("and min brings a replacement").hasSize(3);
        assertThat(lockStore.list("")).isEmpty();
    }

    @Test
    void outdatedRoomsAreReplacedUnderDownscaleHeldForTheWholeReplace() {
        ops.create("name: pong\ngame: pong\nimage: v1\nautoscaling: {min: 4}\n");
        startWorker();
        tasks.advanceBy(Duration.ofMinutes(1));
        // A new major saved without a replace (as after a crash mid-update): the watcher catches up.
        schedulers.saveVersion("pong", new dev.hotspare.fleet.versions.SchedulerVersion(2, 0),
                dev.hotspare.fleet.ConfigDocument.of("name: pong\ngame: pong\nimage: v2\nautoscaling: {min: 4}\n"),
                tasks.now(), new dev.hotspare.fleet.lock.Fence("scheduler.pong.config", 1));
        log.clear();

        tasks.advanceBy(Duration.ofMinutes(5));

        assertThat(kinds()).filteredOn(k -> k.endsWith("downscale")).startsWith("+downscale", "-downscale");
        assertThat(driver.list("pong")).hasSize(4).allMatch(m -> m.templateVersion().equals("v2.0"));
        assertThat(lockStore.list("")).isEmpty();
    }
}
