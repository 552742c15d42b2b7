package dev.hotspare.fleet.runtime.workers;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfigs;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.RecordingForwarderProvider;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.internal.FleetParts;
import dev.hotspare.fleet.runtime.internal.Watcher;
import dev.hotspare.fleet.runtime.internal.Worker;
import dev.hotspare.json.Documents;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.memory.InMemoryUsageHistory;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerTest {

    private static final String CONFIG = """
            name: pong
            game: pong
            image: pong/pong:v1
            autoscaling:
              min: 4
              max: 0
            """;

    /** Shared stores and driver, as several worker processes would see them. */
    private final class Fleet {
        final VirtualTimeScheduler tasks = VirtualTimeScheduler.startingAt2026();
        final InMemoryLockStore lockStore = new InMemoryLockStore(tasks.clock());
        final InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
        final InMemoryRoomStatusStore rooms = new InMemoryRoomStatusStore();
        final InMemoryUsageHistory history = new InMemoryUsageHistory();
        final InMemoryMemberDriver memory = InMemoryMemberDriver.builder(tasks)
                .installTime(Duration.ofSeconds(20)).deleteTime(Duration.ofSeconds(5)).build();
        final AtomicInteger creates = new AtomicInteger();
        final AtomicInteger deletes = new AtomicInteger();
        final MemberDriver driver = counting(memory, creates, deletes);
        final AtomicInteger parses = new AtomicInteger();
        final Function<ConfigDocument, SchedulerConfig> parser = doc -> {
            parses.incrementAndGet();
            return SchedulerConfigs.parse(doc.submitted(), Documents.Format.YAML);
        };
        final SchedulerOperations ops = FleetParts.operations(schedulers,
                LockManager.builder().lockStore(lockStore).scheduler(tasks).build(), driver, tasks).build();
        final Set<String> silent = new HashSet<>();

        Worker worker() {
            return Worker.builder(schedulers, rooms, history, driver, LockManager.builder().lockStore(lockStore).scheduler(tasks).build(), tasks)
                    .parser(parser).settings(dev.hotspare.fleet.runtime.FleetSettings.builder().pingTimeout(Duration.ofMinutes(1)).build()).build();
        }

        /** Every running room pings "ready" every 10 s, except those told to fall silent. */
        void roomsPing() {
            tasks.scheduleAtFixedRate(Duration.ofSeconds(10), Duration.ofSeconds(10), () -> {
                for (Member m : memory.list("pong")) {
                    if (m.phase() == MemberPhase.READY && m.observedPower() == ObservedPower.RUNNING && !silent.contains(m.id())
                            && rooms.room("pong", m.id()).filter(r -> r.status() == RoomStatus.TERMINATING).isEmpty()) {
                        rooms.update("pong", m.id(), RoomStatus.READY, tasks.now());
                    }
                }
            });
        }

        List<Member> live() {
            return memory.list("pong").stream().filter(m -> m.phase() != MemberPhase.DELETING).toList();
        }
    }

    private static MemberDriver counting(MemberDriver delegate, AtomicInteger creates, AtomicInteger deletes) {
        return new MemberDriver() {
            public Member create(String pool, String templateVersion, DesiredPower power) {
                creates.incrementAndGet();
                return delegate.create(pool, templateVersion, power);
            }

            public void delete(String pool, String memberId) {
                if (delegate.find(pool, memberId).filter(m -> m.phase() != MemberPhase.DELETING).isPresent()) {
                    deletes.incrementAndGet();
                }
                delegate.delete(pool, memberId);
            }

            public void setDesiredPower(String pool, String memberId, DesiredPower power) {
                delegate.setDesiredPower(pool, memberId, power);
            }

            public void assign(String pool, String memberId, String claimName, Instant claimedAt) {
                delegate.assign(pool, memberId, claimName, claimedAt);
            }

            public List<Member> list(String pool) {
                return delegate.list(pool);
            }

            public Optional<Member> find(String pool, String memberId) {
                return delegate.find(pool, memberId);
            }

            public AutoCloseable watch(String pool, MemberListener listener) {
                return delegate.watch(pool, listener);
            }
        };
    }

    /**
     * An hour of a scheduler's life — below min at start, a major update with a rolling replace, a higher min,
     * a max below the room count, a room that stops pinging — run by {@code workers} workers started a few
     * seconds apart. Returns {creates, deletes, final rooms}.
     */
    private int[] runScenario(int workers) {
        Fleet fleet = new Fleet();
        fleet.ops.create(CONFIG);
        fleet.roomsPing();
        List<Worker> started = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            Worker worker = fleet.worker();
            fleet.tasks.schedule(Duration.ofSeconds(3L * i), worker::start);
            started.add(worker);
        }
        fleet.tasks.schedule(Duration.ofMinutes(5), () -> fleet.ops.updateImage("pong", Optional.of("pong/pong:v2")));
        fleet.tasks.schedule(Duration.ofMinutes(15), () -> fleet.ops.updateMin("pong", Optional.of(8)));
        fleet.tasks.schedule(Duration.ofMinutes(25), () -> fleet.ops.update("pong", CONFIG.replace("min: 4", "min: 3")
                .replace("max: 0", "max: 5").replace("pong/pong:v1", "pong/pong:v2")));
        fleet.tasks.schedule(Duration.ofMinutes(35), () -> fleet.silent.add(fleet.live().get(0).id()));
        fleet.tasks.advanceBy(Duration.ofMinutes(60));

        assertThat(fleet.live()).allMatch(m -> m.templateVersion().startsWith("v2."));
        assertThat(fleet.lockStore.list("")).as("no lock outlives the work").isEmpty();
        started.forEach(w -> w.shutdown(Duration.ofMinutes(1)));
        return new int[] {fleet.creates.get(), fleet.deletes.get(), fleet.live().size()};
    }

    @Test
    void threeWorkersOnSharedStoresActExactlyAsOftenAsOne() {
        int[] one = runScenario(1);
        int[] three = runScenario(3);

        assertThat(one[0]).as("the scenario creates rooms").isGreaterThan(10);
        assertThat(one[1]).as("and deletes some").isGreaterThan(5);
        assertThat(one[2]).as("rooms left").isBetween(3, 5);
        assertThat(three).containsExactly(one);
    }

    @Test
    void aWorkerKeepsExactlyOneWatcherPerScheduler() {
        Fleet fleet = new Fleet();
        Worker worker = fleet.worker();
        worker.start();
        fleet.ops.create(CONFIG);
        fleet.ops.create(CONFIG.replace("name: pong", "name: chess"));
        fleet.tasks.advanceBy(Duration.ofSeconds(10));
        assertThat(worker.watched()).containsExactlyInAnyOrder("pong", "chess");
        Watcher pong = worker.watcher("pong").orElseThrow();

        fleet.schedulers.delete("chess", new dev.hotspare.fleet.lock.Fence("scheduler.chess.termination", 1));
        fleet.tasks.advanceBy(Duration.ofSeconds(10));

        assertThat(worker.watched()).containsExactly("pong");
        assertThat(worker.watcher("pong")).containsSame(pong);
    }

    @Test
    void parsedConfigsAreCachedPerVersionNotReparsedEveryTick() {
        Fleet fleet = new Fleet();
        fleet.ops.create(CONFIG);
        Worker worker = fleet.worker();
        worker.start();

        fleet.tasks.advanceBy(Duration.ofMinutes(10));
        assertThat(fleet.parses).as("60 ticks, one parse").hasValue(1);

        fleet.ops.updateMin("pong", Optional.of(5));
        fleet.tasks.advanceBy(Duration.ofMinutes(10));
        assertThat(fleet.parses).as("a new version is parsed once").hasValue(2);
        assertThat(worker.configCacheStats().hitCount()).isGreaterThan(100);
        assertThat(worker.configCacheStats().evictionCount() + worker.configCacheStats().loadCount()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void lockedStepsAreSkippedNotQueuedAndLastScaleIsStoredOnlyForARealScale() {
        Fleet fleet = new Fleet();
        fleet.ops.create(CONFIG);
        fleet.roomsPing();
        HeldLock other = LockManager.builder().lockStore(fleet.lockStore).scheduler(fleet.tasks).build().newScope()
                .tryAcquire(LockId.of("pong", LockKind.TERMINATION)).orElseThrow();
        Worker worker = fleet.worker();
        worker.start();

        fleet.tasks.advanceBy(Duration.ofMinutes(1));
        assertThat(fleet.creates).as("autoscale skipped while TERMINATION is held elsewhere").hasValue(0);
        assertThat(fleet.schedulers.get("pong").orElseThrow().lastScaleAt()).isEmpty();

        other.release();
        fleet.tasks.advanceBy(Duration.ofSeconds(10));
        assertThat(fleet.creates).as("one scale to min, not one per skipped tick").hasValue(4);
        Instant scaledAt = fleet.schedulers.get("pong").orElseThrow().lastScaleAt().orElseThrow();

        fleet.tasks.advanceBy(Duration.ofMinutes(2));
        assertThat(fleet.schedulers.get("pong").orElseThrow().lastScaleAt()).as("no scale, no new lastScaleAt").contains(scaledAt);
    }

    @Test
    void eventsOfASchedulerGoToTheForwardersItsConfigNames() {
        Fleet fleet = new Fleet();
        RecordingForwarderProvider.RECEIVED.clear();
        try (EventDispatcher events = EventDispatcher.builder().build()) {
            Worker worker = Worker.builder(fleet.schedulers, fleet.rooms, fleet.history, fleet.driver,
                    LockManager.builder().lockStore(fleet.lockStore).scheduler(fleet.tasks).build(), fleet.tasks).events(events).build();
            fleet.ops.create(CONFIG + "forwarders:\n  recording:\n    matchmaking: {enabled: true}\n");
            worker.start();

            fleet.tasks.advanceBy(Duration.ofSeconds(10));

            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMinutes(1))
                    .until(() -> RecordingForwarderProvider.RECEIVED.contains("matchmaking:SCHEDULER_SCALED"));
            assertThat(events.publish(dev.hotspare.fleet.events.FleetEvent.room(dev.hotspare.fleet.events.FleetEvent.Type.ROOM_READY,
                    "other", "r1", fleet.tasks.now())).join().deliveries()).as("other schedulers' events do not go there").isEmpty();
        }
    }

    @Test
    void reconcileRegistersUnknownMembersAndForgetsStatusesWithoutMembers() {
        Fleet fleet = new Fleet();
        fleet.ops.create(CONFIG.replace("min: 4", "min: 0"));
        Member stray = fleet.memory.create("pong", "v1.0", DesiredPower.RUNNING);
        fleet.rooms.update("pong", "ghost", RoomStatus.READY, fleet.tasks.now());
        Worker worker = fleet.worker();
        worker.start();

        fleet.tasks.advanceBy(Duration.ofSeconds(10));

        assertThat(fleet.rooms.room("pong", stray.id())).isPresent();
        // The ghost's status goes once it is dead (silent for this worker's ping timeout, a minute): until then it
        // could be a room another worker just created that this worker's view of the driver does not list yet.
        assertThat(fleet.rooms.room("pong", "ghost")).isPresent();
        fleet.tasks.advanceBy(Duration.ofSeconds(50));
        assertThat(fleet.rooms.room("pong", "ghost")).isEmpty();
    }

    @Test
    void shutdownWaitsForARunningRemovalWithinTheTimeout() {
        Fleet fleet = new Fleet();
        fleet.ops.create(CONFIG);
        fleet.roomsPing();
        Worker worker = fleet.worker();
        worker.start();
        fleet.tasks.advanceBy(Duration.ofMinutes(2));
        fleet.silent.add(fleet.live().get(0).id());
        fleet.tasks.advanceBy(Duration.ofSeconds(45));

        var done = worker.shutdown(Duration.ofMinutes(1));
        fleet.tasks.advanceBy(Duration.ofMinutes(2));

        assertThat(done).isCompletedWithValue(true);
        assertThat(worker.watched()).isEmpty();
        assertThat(fleet.lockStore.list("")).isEmpty();
    }
}
