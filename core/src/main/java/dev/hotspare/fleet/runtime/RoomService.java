package dev.hotspare.fleet.runtime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.HeldLock;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.LockScope;
import dev.hotspare.fleet.plan.FleetPlan;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The room side of the protocol (Maestro's ping and status routes): records the report, publishes the room
 * event to the {@link EventDispatcher} — which returns at once, so a slow or failing forwarder never slows or
 * fails a ping — and, when the scheduler opted into panic scale and a room just became occupied, runs one
 * panic scale-up under the PANIC lock (tried once: concurrent reports scale once), through the same room actions as
 * every other scale-up.
 */
public final class RoomService {

    /** How far ahead of the service's clock a report's timestamp may be by default. */
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofSeconds(60);

    private final RoomStatusStore rooms;
    private final SchedulerStore schedulers;
    private final LockManager locks;
    private final FleetPlanner planner;
    private final RoomActions actions;
    private final EventDispatcher events;
    private final TaskScheduler tasks;
    private final Function<ConfigDocument, SchedulerConfig> parser;
    /** Parsed configs by (scheduler, version): a version's config never changes, and parsing is YAML work. */
    private final Cache<Watcher.ConfigKey, SchedulerConfig> configs = Caffeine.newBuilder().maximumSize(1_000).build();
    private final Duration maxClockSkew;

    /**
     * A room service over these stores; panic scale-ups go through the same room actions as every other scale
     * (statuses registered, {@code SCHEDULER_SCALED} published, the scale-up reported to {@code listener}).
     */
    public RoomService(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, LockManager locks,
                       Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                       Function<ConfigDocument, SchedulerConfig> parser, FleetListener listener) {
        this(rooms, schedulers, locks, new FleetPlanner(Objects.requireNonNull(autoscaler, "autoscaler")),
                new RoomActions(driver, Optional.of(rooms), events, listener, tasks, Duration.ofSeconds(1)), events, tasks,
                parser);
    }

    /** A room service reporting no KPIs. */
    public RoomService(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, LockManager locks,
                       Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                       Function<ConfigDocument, SchedulerConfig> parser) {
        this(rooms, schedulers, driver, locks, autoscaler, events, tasks, parser, FleetListener.NONE);
    }

    RoomService(RoomStatusStore rooms, SchedulerStore schedulers, LockManager locks, FleetPlanner planner, RoomActions actions,
                EventDispatcher events, TaskScheduler tasks, Function<ConfigDocument, SchedulerConfig> parser) {
        this(rooms, schedulers, locks, planner, actions, events, tasks, parser, DEFAULT_MAX_CLOCK_SKEW);
    }

    private RoomService(RoomStatusStore rooms, SchedulerStore schedulers, LockManager locks, FleetPlanner planner, RoomActions actions,
                        EventDispatcher events, TaskScheduler tasks, Function<ConfigDocument, SchedulerConfig> parser,
                        Duration maxClockSkew) {
        this.maxClockSkew = Objects.requireNonNull(maxClockSkew, "maxClockSkew");
        this.rooms = Objects.requireNonNull(rooms, "rooms");
        this.schedulers = Objects.requireNonNull(schedulers, "schedulers");
        this.locks = Objects.requireNonNull(locks, "locks");
        this.planner = Objects.requireNonNull(planner, "planner");
        this.actions = Objects.requireNonNull(actions, "actions");
        this.events = Objects.requireNonNull(events, "events");
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.parser = Objects.requireNonNull(parser, "parser");
    }

    /**
     * This service, refusing reports stamped more than {@code skew} after its clock.
     *
     * @param skew the largest skew, zero or more
     * @return a room service sharing everything else with this one
     */
    public RoomService withMaxClockSkew(Duration skew) {
        if (Objects.requireNonNull(skew, "skew").isNegative()) {
            throw new IllegalArgumentException("skew: bad value '" + skew + "': must not be negative");
        }
        return new RoomService(rooms, schedulers, locks, planner, actions, events, tasks, parser, skew);
    }

    /**
     * A room's ping or status report.
     *
     * @throws dev.hotspare.validation.ValidationException for an unknown status, a bad name, a transition out of
     *                                                     terminating, or a timestamp later than the clock plus the
     *                                                     allowed skew (such a report would make every correct
     *                                                     report after it look stale, pinning the room)
     */
    public RoomStatusStore.RoomUpdate report(String scheduler, String room, String status, Instant timestamp) {
        Instant latest = tasks.clock().instant().plus(maxClockSkew);
        if (timestamp.isAfter(latest)) {
            throw new dev.hotspare.validation.ValidationException(dev.hotspare.validation.Problem.of("timestamp",
                    timestamp.getEpochSecond(), "is more than " + maxClockSkew.toSeconds() + "s ahead of the server's clock ("
                            + tasks.clock().instant().getEpochSecond() + "); send seconds since the epoch"));
        }
        RoomStatusStore.RoomUpdate update = rooms.ping(scheduler, room, status, timestamp);
        if (update.outcome() != RoomProtocol.Outcome.APPLIED) {
            return update;
        }
        RoomStatus reported = RoomStatus.parse(status);
        if (update.previous().filter(reported::equals).isEmpty()) {
            eventType(reported).ifPresent(type -> events.publish(FleetEvent.room(type, scheduler, room, timestamp)));
        }
        // Only a room that just became occupied changes occupancy; an occupied keep-alive (every 10 s per
        // busy room) must not cost a scheduler read and a config parse.
        if (reported == RoomStatus.OCCUPIED && update.previous().filter(RoomStatus.OCCUPIED::equals).isEmpty()) {
            panicScale(scheduler, update);
        }
        return update;
    }

    private void panicScale(String scheduler, RoomStatusStore.RoomUpdate update) {
        Optional<SchedulerRecord> record = schedulers.get(scheduler);
        if (record.isEmpty()) {
            return;
        }
        SchedulerConfig config = configs.get(new Watcher.ConfigKey(scheduler, record.get().version()),
                key -> parser.apply(record.get().config()));
        Instant now = tasks.clock().instant();
        if (planner.panic(config, update.counts(), now).isEmpty()) {
            return;
        }
        try (LockScope scope = locks.newScope()) {
            Optional<HeldLock> panic = scope.tryAcquire(LockId.of(scheduler, LockKind.PANIC));
            if (panic.isEmpty()) {
                return;
            }
            // Re-decide under the lock on fresh counts: a concurrent panic may already have scaled.
            Optional<FleetPlan.ScaleUp> up = planner.panic(config, rooms.counts(scheduler), now);
            if (up.isPresent()) {
                actions.scaleUp(scheduler, record.get().version(), up.get().count(), up.get().reason());
                schedulers.setLastScaleAt(scheduler, now, panic.get().fence());
            }
        }
    }

    private static Optional<FleetEvent.Type> eventType(RoomStatus status) {
        return switch (status) {
            case READY -> Optional.of(FleetEvent.Type.ROOM_READY);
            case OCCUPIED -> Optional.of(FleetEvent.Type.ROOM_OCCUPIED);
            case TERMINATING -> Optional.of(FleetEvent.Type.ROOM_TERMINATING);
            case TERMINATED -> Optional.of(FleetEvent.Type.ROOM_TERMINATED);
            case CREATING -> Optional.empty();
        };
    }
}
