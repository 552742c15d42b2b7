package dev.hotspare.fleet.runtime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.ScaleDecision;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.HeldLock;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockKind;
import dev.hotspare.fleet.lock.LockScope;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.pool.DesiredPower;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The room side of the protocol (Maestro's ping and status routes): records the report, publishes the room
 * event to the {@link EventDispatcher} — which returns at once, so a slow or failing forwarder never slows or
 * fails a ping — and, when the scheduler opted into panic scale and a room just became occupied, runs one
 * panic scale-up under the PANIC lock (tried once: concurrent reports scale once).
 */
public final class RoomService {

    private final RoomStatusStore rooms;
    private final SchedulerStore schedulers;
    private final MemberDriver driver;
    private final dev.hotspare.fleet.lock.LockManager locks;
    private final Autoscaler autoscaler;
    private final EventDispatcher events;
    private final TaskScheduler tasks;
    private final Function<ConfigDocument, SchedulerConfig> parser;
    /** Parsed configs by (scheduler, version): a version's config never changes, and parsing is YAML work. */
    private final Cache<Watcher.ConfigKey, SchedulerConfig> configs = Caffeine.newBuilder().maximumSize(1_000).build();

    public RoomService(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, dev.hotspare.fleet.lock.LockManager locks,
                       Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                       Function<ConfigDocument, SchedulerConfig> parser) {
        this.rooms = Objects.requireNonNull(rooms, "rooms");
        this.schedulers = Objects.requireNonNull(schedulers, "schedulers");
        this.driver = Objects.requireNonNull(driver, "driver");
        this.locks = Objects.requireNonNull(locks, "locks");
        this.autoscaler = Objects.requireNonNull(autoscaler, "autoscaler");
        this.events = Objects.requireNonNull(events, "events");
        this.tasks = Objects.requireNonNull(tasks, "tasks");
        this.parser = Objects.requireNonNull(parser, "parser");
    }

    /**
     * A room's ping or status report.
     *
     * @throws dev.hotspare.validation.ValidationException for an unknown status, a bad name, or a transition
     *                                                     out of terminating
     */
    public RoomStatusStore.RoomUpdate report(String scheduler, String room, String status, Instant timestamp) {
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
        if (!autoscaler.panicDecision(config, update.counts(), RoomStatus.OCCUPIED, now).scales()) {
            return;
        }
        try (LockScope scope = locks.newScope()) {
            Optional<HeldLock> panic = scope.tryAcquire(LockId.of(scheduler, LockKind.PANIC));
            if (panic.isEmpty()) {
                return;
            }
            // Re-decide under the lock on fresh counts: a concurrent panic may already have scaled.
            ScaleDecision decision = autoscaler.panicDecision(config, rooms.counts(scheduler), RoomStatus.OCCUPIED, now);
            for (int i = 0; i < decision.delta(); i++) {
                String id = driver.create(scheduler, record.get().version().toString(), DesiredPower.RUNNING).id();
                rooms.update(scheduler, id, RoomStatus.CREATING, now);
            }
            if (decision.scales()) {
                schedulers.setLastScaleAt(scheduler, now, panic.get().fence());
                events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_SCALED, scheduler, now,
                        java.util.Map.of("delta", String.valueOf(decision.delta()), "reason", "panic")));
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
