package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerStatus;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A whole fleet on the in-memory default and virtual time, for the behaviour tests in the packages below this one:
 * rooms take {@code installTime} to start and {@code deleteTime} to go, and report only when the test says so.
 */
public final class FleetFixture implements AutoCloseable {

    /** The scheduler every fixture config names. */
    public static final String SCHEDULER = "pong";

    private final VirtualTimeScheduler time = TaskScheduler.virtual(Instant.parse("2026-01-01T00:00:00Z"));
    private final InMemoryMemberDriver driver;
    private final Fleet fleet;

    /** A fleet whose rooms start in 5 s and go in 5 s, with the default builder settings. */
    public FleetFixture() {
        this(builder -> builder);
    }

    /**
     * A fleet with rooms that start in 5 s and go in 5 s, and whatever else {@code settings} changes.
     *
     * @param settings changes to the fleet's builder
     */
    public FleetFixture(UnaryOperator<Fleet.Builder> settings) {
        this(Duration.ofSeconds(5), settings);
    }

    /**
     * A fleet whose rooms take {@code installTime} to start and 5 s to go.
     *
     * @param installTime how long a room takes to start
     * @param settings    changes to the fleet's builder
     */
    public FleetFixture(Duration installTime, UnaryOperator<Fleet.Builder> settings) {
        this.driver = InMemoryMemberDriver.builder(time).installTime(installTime).deleteTime(Duration.ofSeconds(5)).build();
        this.fleet = settings.apply(Fleet.builder().scheduler(time).memberDriver(driver)).build();
    }

    /** @return the rooms' driver */
    public InMemoryMemberDriver driver() {
        return driver;
    }

    /** @return the template version of every live room, oldest room first */
    public List<String> versions() {
        return FleetPlanner.liveRooms(driver.list(SCHEDULER)).stream().map(Member::templateVersion).toList();
    }

    /** @return the fleet under test */
    public Fleet fleet() {
        return fleet;
    }

    /** @return its virtual time */
    public VirtualTimeScheduler time() {
        return time;
    }

    /** @return now on the virtual clock */
    public Instant now() {
        return time.now();
    }

    /**
     * Moves virtual time on, running every task due.
     *
     * @param duration how far
     */
    public void advance(Duration duration) {
        time.advanceBy(duration);
    }

    /**
     * Creates the scheduler from {@code yaml} (its name must be {@value #SCHEDULER}).
     *
     * @param yaml the config
     */
    public void create(String yaml) {
        fleet.operations().create(yaml);
    }

    /**
     * Test setup: {@code count} rooms on the scheduler's current version, created through the driver and registered
     * {@code creating}, as a scale-up leaves them, without a watcher (manual scaling is the watcher's to apply).
     *
     * @param count how many
     */
    public void addRooms(int count) {
        String version = fleet.schedulerStore().get(SCHEDULER).orElseThrow().version().toString();
        for (int i = 0; i < count; i++) {
            String room = driver.create(SCHEDULER, version, dev.hotspare.pool.Member.DesiredPower.RUNNING).id();
            fleet.roomStatusStore().update(SCHEDULER, room, RoomStatus.CREATING, time.now());
        }
    }

    /**
     * Runs what is due now (a woken watcher, a waiting caller's first look) and gives back what {@code scale} completed with.
     *
     * @param scale a scaling operation's future
     * @return its value
     */
    public int applied(java.util.concurrent.CompletableFuture<Integer> scale) {
        time.runDueTasks();
        if (!scale.isDone()) {
            throw new AssertionError("the scale request was not applied by now");
        }
        return scale.join();
    }

    /** @return the live rooms' names, oldest first */
    public List<String> rooms() {
        return FleetPlanner.liveRooms(driver.list(SCHEDULER)).stream().map(Member::id).toList();
    }

    /** @return the live rooms that finished starting */
    public List<String> startedRooms() {
        return FleetPlanner.liveRooms(driver.list(SCHEDULER)).stream().filter(m -> m.phase() == MemberPhase.READY)
                .map(Member::id).toList();
    }

    /**
     * Every started room reports {@code status} now.
     *
     * @param status the status
     */
    public void report(RoomStatus status) {
        startedRooms().forEach(room -> report(room, status));
    }

    /**
     * One room reports {@code status} now.
     *
     * @param room   the room
     * @param status the status
     */
    public void report(String room, RoomStatus status) {
        fleet.rooms().report(SCHEDULER, room, status.wireName(), time.now());
    }

    /** @return the scheduler's status */
    public SchedulerStatus status() {
        return fleet.operations().status(SCHEDULER);
    }

    @Override
    public void close() {
        fleet.close();
    }
}
