package dev.hotspare.testkit.fleet;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.VersionedRelease;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemoryRoomStatusStore;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fleet release survives the death of its owner: a fleet is killed in the middle of a release (its tasks stop
 * running on virtual time, its leases run out by their TTL), a new fleet is built over the same stores, and the
 * release ends exactly as it does without the kill — the same outcome, the same statuses, every room on the same
 * version. A backend subclasses it and implements {@link #createStore()} (in memory in the testkit; PostgreSQL
 * in its module).
 */
public abstract class ReleaseResumeContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    /** Seconds after the update's start at which the owner is killed: before, inside and between chunks. */
    private static final int[] KILLS = {0, 1, 3, 8, 19, 23, 31, 44, 52};

    /**
     * Creates the scheduler store under test; called once per run (a run may share its backend with others).
     */
    protected abstract SchedulerStore createStore();

    /** What a run ends with. */
    record Outcome(Optional<ReleasePhase> phase, Optional<ReleasePhase> rollbackOutcome, List<String> statuses,
                   List<String> versions) {
    }

    /** A task scheduler over shared virtual time that stops running anything once killed: a process that died. */
    private static final class Mortal implements TaskScheduler {
        private final TaskScheduler time;
        private volatile boolean dead;

        Mortal(TaskScheduler time) {
            this.time = time;
        }

        @Override
        public Clock clock() {
            return time.clock();
        }

        @Override
        public Cancellable schedule(Duration delay, Runnable task) {
            return time.schedule(delay, () -> {
                if (!dead) {
                    task.run();
                }
            });
        }

        @Override
        public Cancellable scheduleAtFixedRate(Duration initialDelay, Duration period, Runnable task) {
            return time.scheduleAtFixedRate(initialDelay, period, () -> {
                if (!dead) {
                    task.run();
                }
            });
        }
    }

    /** The world that outlives an owner: time, rooms, stores and the lock store. */
    private final class World {
        final VirtualTimeScheduler time = TaskScheduler.virtual(T0);
        final InMemoryMemberDriver driver = InMemoryMemberDriver.builder(time).installTime(Duration.ofSeconds(20))
                .deleteTime(Duration.ofSeconds(3)).build();
        final SchedulerStore schedulers = createStore();
        final RoomStatusStore statuses = new InMemoryRoomStatusStore();
        final InMemoryLockStore locks = new InMemoryLockStore(time.clock());
        final String name = "r" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
        Mortal owner;
        Fleet fleet;

        Fleet start() {
            owner = new Mortal(time);
            fleet = Fleet.builder().scheduler(owner).schedulerStore(schedulers).roomStatusStore(statuses).lockStore(locks)
                    .memberDriver(driver).build().start();
            return fleet;
        }

        void kill() {
            owner.dead = true;
        }

        /** One second: every started room reports ready (as game servers ping); room {@code failing} of v2.0 fails. */
        void second(int failing) {
            time.advanceBy(Duration.ofSeconds(1));
            List<Member> live = FleetPlanner.liveRooms(driver.list(name));
            for (Member room : live) {
                if (room.phase() == MemberPhase.READY) {
                    fleet.rooms().report(name, room.id(), RoomStatus.READY.wireName(), time.now());
                }
            }
            List<Member> v2 = live.stream().filter(m -> m.templateVersion().equals("v2.0")).toList();
            if (failing >= 0 && v2.size() > failing && v2.get(failing).phase() != MemberPhase.FAILED) {
                driver.fail(name, v2.get(failing).id());
            }
        }

        Outcome outcome() {
            Optional<VersionedRelease> release = schedulers.loadRelease(name);
            return new Outcome(release.map(r -> r.state().phase()), release.flatMap(r -> r.state().rollbackOutcome()),
                    schedulers.releases(name).stream().map(r -> r.version() + "=" + r.status()).toList(),
                    FleetPlanner.liveRooms(driver.list(name)).stream().map(Member::templateVersion).sorted().toList());
        }
    }

    /** Runs an image update of a 4-room scheduler (chunks of 2); kills its owner {@code killAt} seconds in (-1: never). */
    private Outcome run(int killAt, int failing) {
        World w = new World();
        Fleet first = w.start();
        first.operations().create("name: " + w.name + "\ngame: pong\nimage: pong:1\nmaxSurge: \"50%\"\nautoscaling: {min: 4, max: 4}\n");
        for (int s = 0; s < 40; s++) {
            w.second(-1);
        }
        assertThat(FleetPlanner.liveRooms(w.driver.list(w.name))).hasSize(4);
        first.operations().updateImage(w.name, Optional.of("pong:2"));
        for (int s = 0; s < 400; s++) {
            if (s == killAt) {
                if (killAt < 40 || killAt == 60) {
                    assertThat(w.schedulers.loadRelease(w.name)).as("the release is in flight when its owner dies")
                            .map(r -> r.state().terminal()).contains(false);
                }
                w.kill();
                w.start();
            }
            w.second(failing);
        }
        Outcome outcome = w.outcome();
        w.fleet.close();
        // Runs may share a backend: the next run's fleet must not find this scheduler (its fences are this world's).
        w.schedulers.delete(w.name, new Fence("scheduler." + w.name + ".termination", 1_000_000));
        return outcome;
    }

    @Test
    void aReleaseWhoseOwnerDiesAnywhereIsResumedByTheNextOwnerToTheSameOutcome() {
        Outcome reference = run(-1, -1);
        assertThat(reference).isEqualTo(new Outcome(Optional.of(ReleasePhase.DEPLOYED), Optional.empty(),
                List.of("v1.0=DEPLOYED", "v2.0=DEPLOYED"), List.of("v2.0", "v2.0", "v2.0", "v2.0")));
        for (int kill : KILLS) {
            assertThat(run(kill, -1)).as("killed %d s into the release", kill).isEqualTo(reference);
        }
    }

    @Test
    void aFailedReleaseWhoseOwnerDiesAnywhereRollsBackOnTheNextOwnerToTheSameOutcome() {
        // The third new room fails: the release fails in its second chunk and rolls back to v1.0's config as v3.0.
        Outcome reference = run(-1, 2);
        assertThat(reference).isEqualTo(new Outcome(Optional.of(ReleasePhase.ERROR), Optional.of(ReleasePhase.DEPLOYED),
                List.of("v1.0=DEPLOYED", "v2.0=ERROR", "v3.0=DEPLOYED"), List.of("v3.0", "v3.0", "v3.0", "v3.0")));
        for (int kill : KILLS) {
            assertThat(run(kill, 2)).as("killed %d s into the release", kill).isEqualTo(reference);
        }
        for (int kill : new int[] {60, 66, 75}) {
            assertThat(run(kill, 2)).as("killed %d s into the release, while rolling back", kill).isEqualTo(reference);
        }
    }
}
