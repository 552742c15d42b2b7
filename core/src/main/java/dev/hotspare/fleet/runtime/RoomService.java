package dev.hotspare.fleet.runtime;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan;
import dev.hotspare.fleet.runtime.internal.RoomActions;
import dev.hotspare.fleet.runtime.internal.Watcher;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException;
import dev.hotspare.fleet.spi.VersionedScaleInputs;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The room side of the protocol (Maestro's ping and status routes): records the report (with the matches the room
 * runs), publishes the room event to the {@link EventDispatcher} — which returns at once, so a slow or failing
 * forwarder never slows or fails a ping — and, when the scheduler opted into panic scale and a room just became
 * occupied with counts that ask for a panic scale, records the panic input with the scheduler (its
 * {@link dev.hotspare.fleet.plan.ScaleInputs#panicAt()}) and wakes the scheduler's watcher when it runs in this
 * process. The report changes no room: the watcher's planner decides the panic scale-up on its tick's counts and
 * the watcher applies it, so concurrent reports scale once. It also hands out match slots ({@link #allocate}, packing partly used
 * rooms first) and forwards player events ({@link #playerEvent}).
 */
public final class RoomService {

    private static final Pattern PLAYER_EVENT = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** Attempts at recording the panic input while other reports save the same scheduler's inputs. */
    private static final int PANIC_SAVE_ATTEMPTS = 20;

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
    private final java.util.function.Consumer<String> wake;

    /**
     * A room service over these stores. It records panic inputs only: a service built this way wakes no watcher,
     * so a panic scale-up waits for the owning worker's next tick ({@link Fleet#rooms()} wakes its own worker).
     * {@code driver}, {@code locks} and {@code listener} are kept for compatibility; reports change no room.
     * Package-private: users get the room service from {@link Fleet#rooms()}, hotspare's tests from
     * {@link dev.hotspare.fleet.runtime.internal.FleetParts#rooms}.
     */
    RoomService(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, LockManager locks,
                       Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                       Function<ConfigDocument, SchedulerConfig> parser, FleetListener listener) {
        this(rooms, schedulers, locks, new FleetPlanner(Objects.requireNonNull(autoscaler, "autoscaler")),
                new RoomActions(driver, Optional.of(rooms), events, listener, tasks, Duration.ofSeconds(1)), events, tasks,
                parser);
    }

    /**
     * A room service reporting no KPIs.
     */
    RoomService(RoomStatusStore rooms, SchedulerStore schedulers, MemberDriver driver, LockManager locks,
                       Autoscaler autoscaler, EventDispatcher events, TaskScheduler tasks,
                       Function<ConfigDocument, SchedulerConfig> parser) {
        this(rooms, schedulers, driver, locks, autoscaler, events, tasks, parser, FleetListener.NONE);
    }

    RoomService(RoomStatusStore rooms, SchedulerStore schedulers, LockManager locks, FleetPlanner planner, RoomActions actions,
                EventDispatcher events, TaskScheduler tasks, Function<ConfigDocument, SchedulerConfig> parser) {
        this(rooms, schedulers, locks, planner, actions, events, tasks, parser, DEFAULT_MAX_CLOCK_SKEW, name -> { });
    }

    private RoomService(RoomStatusStore rooms, SchedulerStore schedulers, LockManager locks, FleetPlanner planner, RoomActions actions,
                        EventDispatcher events, TaskScheduler tasks, Function<ConfigDocument, SchedulerConfig> parser,
                        Duration maxClockSkew, java.util.function.Consumer<String> wake) {
        this.wake = Objects.requireNonNull(wake, "wake");
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
        return new RoomService(rooms, schedulers, locks, planner, actions, events, tasks, parser, skew, wake);
    }

    /** This service, waking the scheduler's watcher through {@code wake} after it records a panic input. */
    RoomService withWake(java.util.function.Consumer<String> wake) {
        return new RoomService(rooms, schedulers, locks, planner, actions, events, tasks, parser, maxClockSkew, wake);
    }

    /**
     * A room's ping or status report, without a match count (one match while occupied, none otherwise).
     *
     * @param status    the status as sent
     * @param timestamp the report's time
     * @return the outcome, previous status and counts
     * @throws dev.hotspare.validation.ValidationException for an unknown status, a bad name, or a transition
     *                                                     out of terminating
     */
    public RoomStatusStore.RoomUpdate report(String scheduler, String room, String status, Instant timestamp) {
        return report(scheduler, room, status, timestamp, RoomProtocol.defaultRunningMatches(RoomStatus.parse(status)));
    }

    /**
     * A room's ping or status report with the matches it runs (Maestro 10's {@code runningMatches}).
     *
     * @param status         the status as sent
     * @param timestamp      the report's time
     * @param runningMatches the matches the room runs
     * @return the outcome, previous status and counts
     * @throws dev.hotspare.validation.ValidationException for an unknown status, a bad name or count, or a
     *                                                     transition out of terminating, or a timestamp later than
     *                                                     the clock plus the allowed skew (such a report would make
     *                                                     every correct report after it look stale, pinning the room)
     */
    public RoomStatusStore.RoomUpdate report(String scheduler, String room, String status, Instant timestamp,
                                             int runningMatches) {
        requireNotAhead(timestamp);
        RoomStatusStore.RoomUpdate update = rooms.ping(scheduler, room, status, timestamp, runningMatches);
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

    /**
     * Hands out one match slot of {@code scheduler} (Maestro 10 rooms host several matches): the most used room
     * with a free slot, so empty rooms stay free to be scaled down; a ready room becomes allocated until it reports
     * its match running or the allocation times out. Atomic in the store: concurrent callers never get the same slot.
     *
     * @return the room, or empty when no room has a free slot
     * @throws dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException when the scheduler does not exist
     */
    public Optional<String> allocate(String scheduler) {
        int slots = FleetPlanner.maxMatchesPerRoom(config(scheduler));
        Instant now = tasks.clock().instant();
        Optional<String> room = rooms.allocate(scheduler, slots, now);
        room.ifPresent(r -> events.publish(FleetEvent.room(FleetEvent.Type.ROOM_ALLOCATED, scheduler, r, now)));
        return room;
    }

    /**
     * Up to {@code limit} rooms of {@code scheduler} with a free match slot, in the order {@link #allocate} takes
     * them: partly used rooms (most used first) before empty ones, ties by name.
     *
     * @param limit     the most rooms, at least 1
     * @throws dev.hotspare.fleet.spi.SchedulerStore.SchedulerNotFoundException when the scheduler does not exist
     */
    public List<String> roomsWithFreeSlots(String scheduler, int limit) {
        return rooms.roomsWithFreeSlots(scheduler, FleetPlanner.maxMatchesPerRoom(config(scheduler)), limit);
    }

    /**
     * Forwards a player event of a room (Maestro's {@code playerevent} route) to the scheduler's forwarders, as a
     * {@code PLAYER_EVENT} with {@code event} and {@code metadata}.
     *
     * @param event     what happened, e.g. {@code playerJoin}
     * @param timestamp when
     * @param metadata  what the room sent with it
     * @return completes with the failed deliveries of forwarders that asked for their response to be seen
     *         ({@code forwardResponse}); at once and empty when none asked
     */
    public CompletableFuture<List<EventDispatcher.Delivery>> playerEvent(String scheduler, String room, String event,
                                                                        Instant timestamp, Map<String, String> metadata) {
        Names.requireDns1123Label("room", room);
        if (event == null || !PLAYER_EVENT.matcher(event).matches()) {
            throw new ValidationException(Problem.of("event", event == null ? Problem.MISSING : event,
                    "must be an event name: letters, digits, '-' or '_', at most 64 (e.g. playerJoin, playerLeft)"));
        }
        // Checked as a ping's is: forwarders are not handed a time from the future.
        requireNotAhead(timestamp);
        config(scheduler);
        Map<String, String> details = new LinkedHashMap<>(metadata);
        details.put("event", event);
        CompletableFuture<EventDispatcher.DeliveryReport> report =
                events.publish(FleetEvent.room(FleetEvent.Type.PLAYER_EVENT, scheduler, room, timestamp, details));
        if (!events.forwardsResponses(scheduler)) {
            return CompletableFuture.completedFuture(List.of());
        }
        return report.thenApply(EventDispatcher.DeliveryReport::failedResponses);
    }

    private void requireNotAhead(Instant timestamp) {
        Instant latest = tasks.clock().instant().plus(maxClockSkew);
        if (timestamp.isAfter(latest)) {
            throw new dev.hotspare.validation.ValidationException(dev.hotspare.validation.Problem.of("timestamp",
                    timestamp.getEpochSecond(), "is more than " + maxClockSkew.toSeconds() + "s ahead of the server's clock ("
                            + tasks.clock().instant().getEpochSecond() + "); send seconds since the epoch"));
        }
    }

    /** The scheduler's parsed config; throws when it does not exist. */
    private SchedulerConfig config(String scheduler) {
        SchedulerRecord record = schedulers.get(scheduler).orElseThrow(() -> new SchedulerNotFoundException(scheduler));
        return configs.get(new Watcher.ConfigKey(scheduler, record.version()), key -> parser.apply(record.config()));
    }

    /** Records the panic input when the report's counts ask for a panic scale; the watcher decides and scales. */
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
        try {
            for (int attempt = 0; attempt < PANIC_SAVE_ATTEMPTS; attempt++) {
                VersionedScaleInputs stored = schedulers.loadScaleInputs(scheduler);
                if (stored.inputs().panicAt().isPresent()
                        || schedulers.saveScaleInputs(scheduler, stored.inputs().withPanic(now), stored.version())) {
                    break; // asked already (one decision covers every report before it), or recorded now
                }
            }
        } catch (SchedulerNotFoundException deleted) {
            return;
        }
        wake.accept(scheduler);
    }

    private static Optional<FleetEvent.Type> eventType(RoomStatus status) {
        return switch (status) {
            case READY -> Optional.of(FleetEvent.Type.ROOM_READY);
            case ALLOCATED -> Optional.of(FleetEvent.Type.ROOM_ALLOCATED);
            case OCCUPIED -> Optional.of(FleetEvent.Type.ROOM_OCCUPIED);
            case TERMINATING -> Optional.of(FleetEvent.Type.ROOM_TERMINATING);
            case TERMINATED -> Optional.of(FleetEvent.Type.ROOM_TERMINATED);
            case CREATING, ERROR -> Optional.empty();
        };
    }
}
