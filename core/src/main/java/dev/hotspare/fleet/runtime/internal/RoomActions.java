package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan.ScaleReason;
import dev.hotspare.fleet.runtime.FleetListener;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.PoolPlan.ScaleOperation;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The only code that creates or removes a fleet's rooms. Every scale-up (the autoscaler's, a new scheduler's min
 * rooms, a panic scale, a manual one) and every scale-down or dead-room removal goes through here, so each
 * registers its rooms' statuses, publishes its event and reports its KPI the same way:
 * <ul>
 *   <li>a scale-up registers its rooms {@code creating}, publishes {@code SCHEDULER_SCALED} with
 *       {@code delta=+n} and {@code reason}, and reports {@link ScaleOperation#SCALE_UP};</li>
 *   <li>a scale-down clears its rooms' statuses, publishes {@code SCHEDULER_SCALED} with {@code delta=-n} and
 *       {@code reason}, and reports {@link ScaleOperation#SCALE_DOWN};</li>
 *   <li>a dead-room removal clears the statuses, publishes {@code ROOM_TERMINATED} per room and reports
 *       {@link ScaleOperation#DELETE};</li>
 *   <li>a rolling replace and a scheduler's deletion change rooms without a scale event or KPI: the first keeps
 *       the number of rooms, the second ends the scheduler.</li>
 * </ul>
 * Callers hold the locks the lock protocol names; this class takes none.
 */
public final class RoomActions {

    private final MemberDriver driver;
    private final Optional<RoomStatusStore> statuses;
    private final EventDispatcher events;
    private final FleetListener listener;
    private final TaskScheduler tasks;
    private final Duration pollInterval;
    /** Most rooms created before they are registered and reported: a scale-up of n rooms is n / chunk steps. */
    private final int chunk;

    public RoomActions(MemberDriver driver, Optional<RoomStatusStore> statuses, EventDispatcher events, FleetListener listener,
                TaskScheduler tasks, Duration pollInterval) {
        this(driver, statuses, events, listener, tasks, pollInterval, dev.hotspare.fleet.SchedulerConfig.FleetLimits.DEFAULT.maxScaleStep());
    }

    public RoomActions(MemberDriver driver, Optional<RoomStatusStore> statuses, EventDispatcher events, FleetListener listener,
                TaskScheduler tasks, Duration pollInterval, int chunk) {
        this.chunk = Math.max(1, chunk);
        this.driver = Objects.requireNonNull(driver, "driver");
        this.statuses = Objects.requireNonNull(statuses, "statuses");
        this.events = Objects.requireNonNull(events, "events");
        this.listener = FleetListener.guarded(listener);
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
    }

    public MemberDriver driver() {
        return driver;
    }

    public Optional<RoomStatusStore> statuses() {
        return statuses;
    }

    public TaskScheduler tasks() {
        return tasks;
    }

    public FleetListener listener() {
        return listener;
    }

    /**
     * Creates {@code count} rooms on {@code version}, in steps of at most the chunk size (each step registered,
     * published and reported on its own, so a large scale-up never builds up one huge batch); returns their names.
     */
    public List<String> scaleUp(String scheduler, SchedulerVersion version, int count, ScaleReason reason) {
        List<String> created = new ArrayList<>(Math.min(count, chunk));
        for (int done = 0; done < count; ) {
            int step = Math.min(chunk, count - done);
            created.addAll(scaleUpStep(scheduler, version, step, reason));
            done += step;
        }
        return created;
    }

    private List<String> scaleUpStep(String scheduler, SchedulerVersion version, int count, ScaleReason reason) {
        Instant now = tasks.clock().instant();
        List<String> created = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                created.add(createRoom(scheduler, version, now));
            }
        } finally {
            // Rooms created before a failure exist: report them, so events and KPIs match the rooms.
            if (!created.isEmpty()) {
                scaled(scheduler, created.size(), reason, now);
                listener.roomsScaled(scheduler, ScaleOperation.SCALE_UP, created.size());
            }
        }
        return created;
    }

    /** Removes {@code rooms} (in this order) because the fleet scales down. */
    public void scaleDown(String scheduler, List<String> rooms, ScaleReason reason) {
        Instant now = tasks.clock().instant();
        int removed = 0;
        try {
            for (String room : rooms) {
                removeRoom(scheduler, room);
                removed++;
            }
        } finally {
            scaled(scheduler, -removed, reason, now);
            if (removed > 0) {
                listener.roomsScaled(scheduler, ScaleOperation.SCALE_DOWN, removed);
            }
        }
    }

    /** Removes dead rooms: silent too long, or occupied too long. */
    public void removeDead(String scheduler, List<String> rooms) {
        int removed = 0;
        try {
            for (String room : rooms) {
                removeRoom(scheduler, room);
                removed++;
                events.publish(FleetEvent.room(FleetEvent.Type.ROOM_TERMINATED, scheduler, room, tasks.clock().instant()));
            }
        } finally {
            if (removed > 0) {
                listener.roomsScaled(scheduler, ScaleOperation.DELETE, removed);
            }
        }
    }

    /**
     * A release's new rooms on {@code version}, registered {@code creating}; returns them. The statuses follow the
     * rooms at once, like every other scale: a deleted room's status left behind would still count as active until
     * it was seen dead, and the autoscaler of the next tick would then remove live rooms to bring the inflated count
     * under max. No scale event or KPI: a release keeps the number of rooms.
     */
    public List<String> createForRelease(String scheduler, SchedulerVersion version, int count) {
        Instant now = tasks.clock().instant();
        List<String> created = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            created.add(createRoom(scheduler, version, now));
        }
        return created;
    }

    /** A release's replaced rooms deleted, their statuses dropped (a room already gone is skipped). */
    public void removeForRelease(String scheduler, List<String> rooms) {
        for (String room : rooms) {
            removeRoom(scheduler, room);
        }
    }

    /** Deletes every room of a scheduler that is being deleted; returns their names. */
    public List<String> removeAll(String scheduler) {
        List<String> rooms = dev.hotspare.fleet.plan.FleetPlanner.liveRooms(driver.list(scheduler)).stream()
                .map(dev.hotspare.pool.Member::id).toList();
        rooms.forEach(id -> driver.delete(scheduler, id));
        return rooms;
    }

    /** Registers a room the driver lists but the status store does not know, as {@code creating}. */
    public void register(String scheduler, String room, Instant createdAt) {
        statuses.ifPresent(store -> store.update(scheduler, room, RoomStatus.CREATING, createdAt));
    }

    /**
     * Forgets the status of a room the driver no longer listed. Looks once more first: a room created after the
     * observation was listed keeps its status.
     */
    public void forget(String scheduler, String room) {
        if (statuses.isPresent() && driver.find(scheduler, room).isEmpty()) {
            statuses.get().remove(scheduler, room);
        }
    }

    /** Takes back the slots of rooms allocated at or before {@code cutoff}; returns those rooms. */
    public List<String> expireAllocations(String scheduler, Instant cutoff) {
        return statuses.map(store -> store.expireAllocations(scheduler, cutoff)).orElse(List.of());
    }

    /** Completes when none of {@code rooms} is listed any more, or at {@code deadline}. */
    public CompletableFuture<Void> waitUntilGone(String scheduler, List<String> rooms, Instant deadline) {
        return MembersGone.await(driver, tasks, pollInterval, scheduler, rooms, deadline);
    }

    private String createRoom(String scheduler, SchedulerVersion version, Instant now) {
        String room = driver.create(scheduler, version.toString(), DesiredPower.RUNNING).id();
        statuses.ifPresent(store -> store.update(scheduler, room, RoomStatus.CREATING, now));
        return room;
    }

    private void removeRoom(String scheduler, String room) {
        driver.delete(scheduler, room);
        statuses.ifPresent(store -> store.remove(scheduler, room));
    }

    private void scaled(String scheduler, int delta, ScaleReason reason, Instant now) {
        events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_SCALED, scheduler, now,
                Map.of("delta", String.valueOf(delta), "reason", reason.name().toLowerCase(Locale.ROOT))));
    }
}
