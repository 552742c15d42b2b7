package dev.hotspare.fleet.runtime;

import com.github.benmanes.caffeine.cache.Cache;
import dev.hotspare.fleet.DeadRoomRules;
import dev.hotspare.fleet.MetricsTrigger;
import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.TriggerTypes;
import dev.hotspare.fleet.autoscale.FleetSnapshot;
import dev.hotspare.fleet.autoscale.ReadyRoom;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.ScaleDecision;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.HeldLock;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockKind;
import dev.hotspare.fleet.lock.LockScope;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.DesiredPower;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.ScaleOperation;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Manages one scheduler inside a {@link Worker}: every autoscaling period it
 * <ol>
 *   <li>reconciles room statuses with the {@link dev.hotspare.pool.spi.MemberDriver} (statuses of rooms with no
 *       member are removed, members with no status are registered as creating) — no lock, idempotent;</li>
 *   <li>replaces rooms on an outdated major through the rolling replace, under DOWNSCALE;</li>
 *   <li>removes dead rooms, under DOWNSCALE;</li>
 *   <li>records usage points and autoscales under TERMINATION, plus DOWNSCALE for a scale-down, storing
 *       lastScaleAt only for a successful scale. A scheduler still {@code creating} gets its min rooms first
 *       and then becomes {@code in-sync}.</li>
 * </ol>
 * Each locked step tries its lock once and is skipped, not queued, when the lock is busy — another worker is
 * doing it. Parsed configs come from the worker's Caffeine cache keyed by (scheduler, version). When the
 * version changes, the scheduler's events are routed to the forwarders its config's {@code forwarders}
 * section names.
 */
public final class Watcher {

    private static final Logger LOG = LoggerFactory.getLogger(Watcher.class);

    /** Cache key: a scheduler version's parsed config never changes, so the pair identifies it exactly. */
    record ConfigKey(String scheduler, SchedulerVersion version) {
    }

    private final String scheduler;
    private final WorkerContext context;
    private final Cache<ConfigKey, SchedulerConfig> configs;
    private final AtomicBoolean replacing = new AtomicBoolean();
    private final AtomicBoolean removing = new AtomicBoolean();
    private TaskScheduler.Cancellable ticking;
    private volatile boolean stopped;
    private SchedulerVersion lastVersion;

    Watcher(String scheduler, WorkerContext context, Cache<ConfigKey, SchedulerConfig> configs) {
        this.scheduler = scheduler;
        this.context = context;
        this.configs = configs;
    }

    /** The scheduler this watcher manages. */
    public String scheduler() {
        return scheduler;
    }

    synchronized void start() {
        ticking = context.tasks().scheduleAtFixedRate(context.autoscaler().settings().period(),
                context.autoscaler().settings().period(), this::tick);
    }

    synchronized void stop() {
        stopped = true;
        if (ticking != null) {
            ticking.cancel();
        }
    }

    /** Whether an asynchronous step (a replace or a removal) is still running. */
    boolean busy() {
        return replacing.get() || removing.get();
    }

    /** One tick; public for tests and for callers driving watchers themselves. */
    public void tick() {
        if (stopped) {
            return;
        }
        Optional<SchedulerRecord> found = context.schedulers().get(scheduler);
        if (found.isEmpty()) {
            return;
        }
        SchedulerRecord record = found.get();
        if (!record.version().equals(lastVersion)) {
            if (lastVersion != null) {
                // The old version's parse is dead weight now; a rollback brings the config back as a new version.
                configs.invalidate(new ConfigKey(scheduler, lastVersion));
            }
            step("configure forwarders", () -> context.events().useSchedulerForwarders(scheduler,
                    record.config().tree().path("forwarders"), context.plugins()));
        }
        lastVersion = record.version();
        SchedulerConfig config = configs.get(new ConfigKey(scheduler, record.version()),
                key -> context.parse(record.config()));
        Instant now = context.tasks().clock().instant();
        step("reconcile", () -> reconcile(now));
        step("replace outdated rooms", () -> replaceOutdated(record));
        step("remove dead rooms", () -> removeDeadRooms(config, now));
        step("autoscale", () -> autoscale(record, config, now));
        if (context.kpis() != FleetListener.NONE) {
            step("report room counts", () -> context.kpis().roomsPerStatus(scheduler, context.rooms().counts(scheduler)));
        }
    }

    private void step(String name, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            LOG.warn("watcher of {}: {} failed; retrying next tick", scheduler, name, e);
        }
    }

    private void reconcile(Instant now) {
        Set<String> members = new HashSet<>();
        for (Member member : context.driver().list(scheduler)) {
            if (member.phase() != MemberPhase.DELETING) {
                members.add(member.id());
                if (context.rooms().room(scheduler, member.id()).isEmpty()) {
                    context.rooms().update(scheduler, member.id(), RoomStatus.CREATING, member.createdAt());
                }
            }
        }
        for (RoomStatus status : List.of(RoomStatus.CREATING, RoomStatus.READY, RoomStatus.OCCUPIED, RoomStatus.TERMINATING)) {
            for (String room : context.rooms().rooms(scheduler, status)) {
                if (!members.contains(room) && context.driver().find(scheduler, room).isEmpty()) {
                    context.rooms().remove(scheduler, room);
                }
            }
        }
    }

    private void replaceOutdated(SchedulerRecord record) {
        boolean anyOutdated = RollingReplace.liveRooms(context.driver(), scheduler).stream()
                .anyMatch(m -> RollingReplace.isOutdated(m, record.version()));
        if (!anyOutdated || replacing.get()) {
            return;
        }
        LockScope scope = context.locks().newScope();
        Optional<HeldLock> downscale = scope.tryAcquire(LockId.of(scheduler, LockKind.DOWNSCALE));
        if (downscale.isEmpty()) {
            return;
        }
        replacing.set(true);
        HeldLock lock = downscale.get();
        new RollingReplace(scheduler, record.version(), SchedulerOperations.DEFAULT_MAX_SURGE_PERCENT,
                context.replaceTimeout(), context.pollInterval(), context.driver(), context.tasks(),
                () -> stopped, lock::isLost).start().whenComplete((status, error) -> {
                    scope.close();
                    replacing.set(false);
                });
    }

    private void removeDeadRooms(SchedulerConfig config, Instant now) {
        if (removing.get()) {
            return;
        }
        DeadRoomRules rules = new DeadRoomRules(context.pingTimeout(), DeadRoomRules.of(config).occupiedTimeout());
        List<String> dead = new ArrayList<>(context.rooms().deadRooms(scheduler, rules, now));
        if (dead.isEmpty()) {
            return;
        }
        LockScope scope = context.locks().newScope();
        Optional<HeldLock> downscale = scope.tryAcquire(LockId.of(scheduler, LockKind.DOWNSCALE));
        if (downscale.isEmpty()) {
            return;
        }
        removeUnder(scope, downscale.get(), dead);
        context.kpis().scaled(scheduler, ScaleOperation.DELETE, dead.size());
    }

    /** Deletes rooms and clears their statuses, keeping DOWNSCALE until they are gone (or the timeout passes). */
    private void removeUnder(LockScope scope, HeldLock downscale, List<String> rooms) {
        removing.set(true);
        try {
            downscale.ensureHeld();
            for (String room : rooms) {
                context.driver().delete(scheduler, room);
                context.rooms().remove(scheduler, room);
                context.events().publish(FleetEvent.room(FleetEvent.Type.ROOM_TERMINATED, scheduler, room,
                        context.tasks().clock().instant()));
            }
        } catch (RuntimeException e) {
            scope.close();
            removing.set(false);
            throw e;
        }
        context.waitUntilGone(scheduler, rooms).whenComplete((done, error) -> {
            scope.close();
            removing.set(false);
        });
    }

    private void autoscale(SchedulerRecord record, SchedulerConfig config, Instant now) {
        if (removing.get()) {
            // A removal still holds DOWNSCALE and the counts do not reflect it yet: decide next tick.
            return;
        }
        LockScope scope = context.locks().newScope();
        Optional<HeldLock> termination = scope.tryAcquire(LockId.of(scheduler, LockKind.TERMINATION));
        if (termination.isEmpty()) {
            return;
        }
        boolean handedOver = false;
        try {
            HeldLock lock = termination.get();
            SchedulerState state = SchedulerState.parse(record.state());
            if (state == SchedulerState.CREATING) {
                // A new scheduler: bring up its min rooms (the autoscaler skips creating schedulers), then hand
                // it to the autoscaler.
                int missing = config.autoscaling().min() - context.rooms().counts(scheduler).active();
                lock.ensureHeld();
                createRooms(record.version(), missing, now);
                if (missing > 0) {
                    context.schedulers().setLastScaleAt(scheduler, now, lock.fence());
                    scaled(missing, now);
                    context.kpis().scaled(scheduler, ScaleOperation.SCALE_UP, missing);
                }
                context.schedulers().setState(scheduler, SchedulerState.IN_SYNC.wireName(), now, lock.fence());
                return;
            }
            ScaleDecision decision = context.autoscaler().tick(scheduler, config, snapshot(record.version(), config),
                    context.usageHistory(), state, record.lastScaleAt(), now);
            lock.ensureHeld();
            if (!decision.newState().wireName().equals(record.state())) {
                context.schedulers().setState(scheduler, decision.newState().wireName(), now, lock.fence());
            }
            if (decision.delta() > 0) {
                createRooms(record.version(), decision.delta(), now);
                context.schedulers().setLastScaleAt(scheduler, now, lock.fence());
                scaled(decision.delta(), now);
                context.kpis().scaled(scheduler, ScaleOperation.SCALE_UP, decision.delta());
            } else if (decision.delta() < 0 && !decision.roomsToRemove().isEmpty()) {
                Optional<HeldLock> downscale = scope.tryAcquire(LockId.of(scheduler, LockKind.DOWNSCALE));
                if (downscale.isEmpty()) {
                    return;
                }
                List<String> victims = decision.roomsToRemove().stream().limit(-decision.delta()).toList();
                removeUnder(scope, downscale.get(), victims);
                handedOver = true;
                context.schedulers().setLastScaleAt(scheduler, now, lock.fence());
                scaled(-victims.size(), now);
                if (!victims.isEmpty()) {
                    context.kpis().scaled(scheduler, ScaleOperation.SCALE_DOWN, victims.size());
                }
                // TERMINATION ends with the autoscale step; DOWNSCALE stays until the rooms are gone.
                lock.release();
            }
        } finally {
            if (!handedOver) {
                scope.close();
            }
        }
    }

    private void createRooms(SchedulerVersion version, int count, Instant now) {
        for (int i = 0; i < count; i++) {
            Member created = context.driver().create(scheduler, version.toString(), DesiredPower.RUNNING);
            context.rooms().update(scheduler, created.id(), RoomStatus.CREATING, now);
        }
    }

    private void scaled(int delta, Instant now) {
        context.events().publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_SCALED, scheduler, now,
                Map.of("delta", String.valueOf(delta))));
    }

    private FleetSnapshot snapshot(SchedulerVersion version, SchedulerConfig config) {
        Map<String, Member> members = new HashMap<>();
        context.driver().list(scheduler).forEach(m -> members.put(m.id(), m));
        List<ReadyRoom> ready = new ArrayList<>();
        for (String room : context.rooms().rooms(scheduler, RoomStatus.READY)) {
            Member member = members.get(room);
            if (member != null) {
                ready.add(new ReadyRoom(room, RollingReplace.isOutdated(member, version), member.createdAt()));
            }
        }
        FleetSnapshot snapshot = new FleetSnapshot(context.rooms().counts(scheduler), ready, Map.of());
        for (ResourceMetric metric : usedMetrics(config)) {
            snapshot = snapshot.withUsage(metric, context.usageMetrics().usage(scheduler, metric));
        }
        return snapshot;
    }

    /**
     * The resource metrics this config's triggers can read. A reading costs a metrics-API call per metric on
     * Kubernetes, every tick; room and legacy triggers read none. A trigger of a plug-in type may read any.
     */
    static Set<ResourceMetric> usedMetrics(SchedulerConfig config) {
        Set<ResourceMetric> used = EnumSet.noneOf(ResourceMetric.class);
        List<MetricsTrigger> triggers = new ArrayList<>(config.autoscaling().up().triggers());
        triggers.addAll(config.autoscaling().down().triggers());
        for (MetricsTrigger trigger : triggers) {
            switch (trigger.type()) {
                case TriggerTypes.CPU -> used.add(ResourceMetric.CPU);
                case TriggerTypes.MEM -> used.add(ResourceMetric.MEM);
                case TriggerTypes.ROOM, TriggerTypes.LEGACY -> {
                }
                default -> {
                    return EnumSet.allOf(ResourceMetric.class);
                }
            }
        }
        return used;
    }
}
