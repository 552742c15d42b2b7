package dev.hotspare.fleet.runtime.internal;

import com.github.benmanes.caffeine.cache.Cache;
import dev.hotspare.fleet.PolicyTypes.TriggerTypes;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.SchedulerConfig.MetricsTrigger;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.Autoscaler.UsageWindows;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.plan.FleetPlanner.FleetObservation;
import dev.hotspare.fleet.plan.FleetPlanner.FleetPlan;
import dev.hotspare.fleet.plan.ReleaseMachine;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseCommand;
import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.runtime.FleetListener;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.RoomStatusStore.RoomObservation;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore.VersionedRelease;
import dev.hotspare.fleet.spi.VersionedScaleInputs;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Manages one scheduler inside a {@link Worker}. Every autoscaling period it observes the scheduler (its record,
 * rooms, room statuses, dead rooms, usage, and which of TERMINATION and DOWNSCALE it could take — each tried
 * once, never queued: a busy lock means another worker is doing that step), asks the pure {@link FleetPlanner}
 * for the tick's {@link FleetPlan}, and applies it: room statuses registered and forgotten, the rolling replace of
 * outdated rooms in the config's maxSurge chunks (a repair through the release machine, keeping DOWNSCALE to the end), dead rooms removed (keeping
 * DOWNSCALE until they are gone), timed-out allocations taken back, usage points recorded, rooms created or removed
 * through {@link RoomActions}, then the state (in-sync after a scale; the held state when the scale could not be
 * applied) and the last successful scale recorded. TERMINATION is let go at the end of the tick.
 *
 * <p>The scheduler's persisted {@link ScaleInputs} are part of the observation: a panic input or the oldest manual
 * request takes the tick's scale instead of the autoscaler. A request's decision is saved as being applied (with
 * the inputs' expected version) before a room changes, then applied, then its outcome saved; a decision found saved
 * as being applied is resumed first, creating only what is missing of its target or removing its victims still
 * listed. {@link #wake} ticks at once for an input recorded in this process.
 *
 * <p>Before planning, a release another owner left in progress (saved by the {@link dev.hotspare.fleet.plan.ReleaseMachine}'s
 * runner) is resumed under CONFIG and DOWNSCALE, and releases left without a saved state are marked INTERRUPTED.
 *
 * <p>Parsed configs come from the worker's Caffeine cache keyed by (scheduler, version). When the version
 * changes, the scheduler's events are routed to the forwarders its config's {@code forwarders} section names.
 */
public final class Watcher {

    private static final Logger LOG = LoggerFactory.getLogger(Watcher.class);

    /** Cache key: a scheduler version's parsed config never changes, so the pair identifies it exactly. */
    public record ConfigKey(String scheduler, SchedulerVersion version) {
    }

    private final String scheduler;
    private final WorkerContext context;
    private final Cache<ConfigKey, SchedulerConfig> configs;
    private final AtomicBoolean replacing = new AtomicBoolean();
    private final AtomicBoolean removing = new AtomicBoolean();
    private TaskScheduler.Cancellable ticking;
    private volatile boolean stopped;
    private SchedulerVersion lastVersion;
    /** Whether releases left by a stopped owner were looked for since the version last changed (or a resume ended). */
    private volatile boolean releasesChecked;
    /** A persisted release in progress that this watcher has not resumed yet: no repair replace meanwhile. */
    private volatile boolean releasePending;
    /** A release this watcher resumed is running. */
    private final AtomicBoolean resuming = new AtomicBoolean();
    private volatile Optional<String> lastError = Optional.empty();
    private boolean failedThisTick;
    /** The scale inputs this tick observed, with their version for the saves that apply them. */
    private VersionedScaleInputs observedInputs = VersionedScaleInputs.NONE;
    /** Attempts at saving an applied input while API calls and room reports save the same scheduler's inputs. */
    private static final int SAVE_ATTEMPTS = 20;

    public Watcher(String scheduler, WorkerContext context, Cache<ConfigKey, SchedulerConfig> configs) {
        this.scheduler = scheduler;
        this.context = context;
        this.configs = configs;
    }

    /**
     * The scheduler this watcher manages.
     */
    public String scheduler() {
        return scheduler;
    }

    public synchronized void start() {
        ticking = context.tasks().scheduleAtFixedRate(context.period(), context.period(), this::tick);
    }

    public synchronized void stop() {
        stopped = true;
        if (ticking != null) {
            ticking.cancel();
        }
    }

    /** Whether an asynchronous step (a replace or a removal) is still running. */
    public boolean busy() {
        return replacing.get() || removing.get() || resuming.get();
    }

    /**
     * A scale input was recorded for this scheduler: tick now if it has any waiting (a woken tick with nothing to
     * apply does nothing, so the autoscaler keeps its period).
     */
    public synchronized void wake() {
        if (stopped || !context.ownsNow(scheduler)) {
            return;
        }
        try {
            if (context.schedulers().loadScaleInputs(scheduler).inputs().idle()) {
                return;
            }
        } catch (RuntimeException e) {
            failed("read scale inputs", e);
            return;
        }
        tick();
    }

    /** One tick; public for tests and for callers driving watchers themselves. One at a time: a wake may race a period. */
    public synchronized void tick() {
        // The tick boundary is where ownership is honoured: an instance that no longer holds the scheduler's
        // ownership lease does nothing from its next tick on.
        if (stopped || !context.ownsNow(scheduler)) {
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
            releasesChecked = false;
        }
        lastVersion = record.version();
        if (!releasesChecked) {
            step("resume releases", this::resumeReleases);
        }
        SchedulerConfig config = configs.get(new ConfigKey(scheduler, record.version()),
                key -> context.parse(record.config()));
        LockScope scope = context.locks().newScope();
        Held held = new Held(scope);
        try {
            FleetPlan plan = plan(record, config, held);
            apply(record, config, plan, held);
        } catch (RuntimeException e) {
            failed("tick", e);
        } finally {
            held.endOfTick();
        }
        if (!failedThisTick) {
            lastError = Optional.empty();
        }
        failedThisTick = false;
        if (context.listener() != FleetListener.NONE) {
            step("report room counts", () -> context.listener().roomsPerStatus(scheduler, context.rooms().counts(scheduler)));
        }
    }

    /** The locks this tick holds; DOWNSCALE may be handed over to a replace or a removal that outlives the tick. */
    private static final class Held {
        final LockScope scope;
        Optional<HeldLock> termination = Optional.empty();
        Optional<HeldLock> downscale = Optional.empty();
        boolean downscaleHandedOver;

        public Held(LockScope scope) {
            this.scope = scope;
        }

        public void endOfTick() {
            termination.ifPresent(HeldLock::release);
            if (!downscaleHandedOver) {
                scope.close();
            }
        }
    }

    /** Observes (taking the tick's locks) and plans. */
    private FleetPlan plan(SchedulerRecord record, SchedulerConfig config, Held held) {
        held.termination = held.scope.tryAcquire(LockId.of(scheduler, LockKind.TERMINATION));
        Instant now = context.tasks().clock().instant();
        SchedulerState state = SchedulerState.parse(record.state());
        List<Member> members = context.driver().list(scheduler);
        // One call for statuses, counts and dead rooms (one round trip on Redis): a tick observes a scheduler in five
        // store calls — its record, its rooms' members, this, its scale inputs and its usage history.
        RoomObservation observed = context.rooms().observe(scheduler, FleetPlanner.deadRoomRules(config, context.pingTimeout()), now);
        Map<String, RoomStatus> statuses = new HashMap<>(observed.statuses());
        List<String> dead = new ArrayList<>(observed.dead());
        boolean outdated = FleetPlanner.liveRooms(members).stream().anyMatch(m -> FleetPlanner.isOutdated(m, record.version()));
        boolean replacingNow = replacing.get() || resuming.get() || releasePending;
        if ((outdated && !replacingNow) || (!dead.isEmpty() && !removing.get())) {
            held.downscale = held.scope.tryAcquire(LockId.of(scheduler, LockKind.DOWNSCALE));
        }
        boolean autoscales = held.termination.isPresent() && !removing.get()
                && state != SchedulerState.CREATING && state != SchedulerState.TERMINATING;
        RoomStatusCounts counts = observed.counts();
        // Manual requests and the panic input, as API calls and room reports recorded them (read every tick: they
        // may have been recorded on another instance).
        observedInputs = context.schedulers().loadScaleInputs(scheduler);
        FleetObservation observation = new FleetObservation(scheduler, config, record.version(), state,
                record.lastScaleAt(), members, statuses, counts, dead,
                autoscales ? AutoscalerTicks.recorded(context.planner().autoscaler(), context.usageHistory(), scheduler, config)
                        : UsageWindows.EMPTY,
                autoscales ? resourceUsage(config) : Map.of(),
                held.termination.isPresent(), held.downscale.isPresent(), replacingNow, removing.get(), now,
                observedInputs.inputs());
        return context.planner().plan(observation);
    }

    private void apply(SchedulerRecord record, SchedulerConfig config, FleetPlan plan, Held held) {
        RoomActions actions = context.actions();
        // Slots handed out and never used go back: an allocated room that never reported its match is ready again.
        step("expire allocations", () -> actions.expireAllocations(scheduler,
                FleetPlanner.allocationCutoff(context.allocationTimeout(), context.tasks().clock().instant())));
        for (FleetPlan.Registration registration : plan.register()) {
            step("register room " + registration.room(), () -> actions.register(scheduler, registration.room(),
                    registration.createdAt()));
        }
        for (String room : plan.forget()) {
            step("forget room " + room, () -> actions.forget(scheduler, room));
        }
        if (plan.startReplace()) {
            step("replace outdated rooms", () -> startReplace(record.version(), config.maxSurgeValue(), held));
        }
        if (!plan.removeDead().isEmpty()) {
            step("remove dead rooms", () -> removeUnder(held, () -> {
                held.downscale.orElseThrow().ensureHeld();
                actions.removeDead(scheduler, plan.removeDead());
            }, plan.removeDead()));
        }
        if (held.termination.isPresent()) {
            HeldLock termination = held.termination.get();
            Optional<ScaleInputs.Applying> applying = observedInputs.inputs().applying();
            if (applying.isPresent()) {
                step("resume manual scale", () -> resumeRequest(record, applying.get(), held, termination));
            } else if (plan.panicDecided()) {
                step("panic scale", () -> panicScale(record, plan, termination));
            } else if (plan.request().isPresent()) {
                step("manual scale", () -> manualScale(record, plan, held, termination));
            } else {
                step("autoscale", () -> autoscale(record, plan, held, termination));
            }
        }
    }

    /**
     * Applies the plan's answer to the oldest manual request: the decision is saved as being applied (with the
     * observed inputs' version: a change since means decide again next tick) before any room changes, then
     * executed, then the outcome saved.
     */
    private void manualScale(SchedulerRecord record, FleetPlan plan, Held held, HeldLock termination) {
        ScaleInputs.Request request = plan.request().orElseThrow();
        int listed = FleetPlanner.liveRooms(context.driver().list(scheduler)).size();
        ScaleInputs.Applying decision;
        if (plan.scaling().orElse(null) instanceof FleetPlan.ScaleUp up) {
            decision = new ScaleInputs.Applying(request, listed + up.count(), up.count(), List.of());
        } else if (plan.scaling().orElse(null) instanceof FleetPlan.ScaleDown down) {
            if (!downscaleFor(held)) {
                return; // another worker removes or replaces rooms: the request waits for the next tick
            }
            decision = new ScaleInputs.Applying(request, Math.max(0, listed - down.rooms().size()), 0, down.rooms());
        } else {
            decision = new ScaleInputs.Applying(request, listed, 0, List.of());
        }
        termination.ensureHeld();
        if (!context.schedulers().saveScaleInputs(scheduler, observedInputs.inputs().start(decision), observedInputs.version())) {
            return;
        }
        execute(record, decision, held, termination);
    }

    /** A request saved as being applied (by this instance before a failure, or by an owner that stopped): finish it. */
    private void resumeRequest(SchedulerRecord record, ScaleInputs.Applying applying, Held held, HeldLock termination) {
        if (!applying.victims().isEmpty() && !downscaleFor(held)) {
            return;
        }
        LOG.info("scheduler {}: applying manual {} request {} saved as being applied", scheduler,
                applying.request().kind(), applying.request().id());
        execute(record, applying, held, termination);
    }

    /**
     * Executes a saved decision so that running it twice changes nothing more: a scale-up creates what the driver
     * lacks of the decision's target (no more than the decision's count), a scale-down removes the victims still
     * listed. Then saves the outcome.
     */
    private void execute(SchedulerRecord record, ScaleInputs.Applying decision, Held held, HeldLock termination) {
        termination.ensureHeld();
        List<Member> live = FleetPlanner.liveRooms(context.driver().list(scheduler));
        if (decision.create() > 0) {
            int create = Math.min(decision.create(), decision.target() - live.size());
            if (create > 0) {
                context.actions().scaleUp(scheduler, record.version(), create, FleetPlan.ScaleReason.MANUAL);
            }
        } else if (!decision.victims().isEmpty()) {
            Set<String> listed = new java.util.HashSet<>(live.stream().map(Member::id).toList());
            List<String> left = decision.victims().stream().filter(listed::contains).toList();
            if (!left.isEmpty()) {
                removeUnder(held, () -> {
                    held.downscale.orElseThrow().ensureHeld();
                    context.actions().scaleDown(scheduler, left, FleetPlan.ScaleReason.MANUAL);
                }, left);
            }
        }
        ScaleInputs.Outcome outcome = new ScaleInputs.Outcome(decision.request().id(), decision.delta(), decision.victims());
        for (int attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
            VersionedScaleInputs stored = context.schedulers().loadScaleInputs(scheduler);
            if (stored.inputs().applying().filter(a -> a.request().id().equals(outcome.id())).isEmpty()
                    || context.schedulers().saveScaleInputs(scheduler, stored.inputs().finish(outcome), stored.version())) {
                return;
            }
        }
        throw new IllegalStateException("the outcome of request " + outcome.id() + " could not be saved; the next tick saves it");
    }

    /** DOWNSCALE for a manual removal, unless it went to a replace or a removal: then the request waits. */
    private boolean downscaleFor(Held held) {
        if (held.downscaleHandedOver || removing.get()) {
            return false;
        }
        if (held.downscale.isEmpty()) {
            held.downscale = held.scope.tryAcquire(LockId.of(scheduler, LockKind.DOWNSCALE));
        }
        return held.downscale.isPresent();
    }

    /**
     * Applies the planner's panic decision (taken on this tick's counts), then clears the panic input the decision
     * answered; a report after the decision leaves a newer one, decided at the next tick on counts that include
     * these rooms.
     */
    private void panicScale(SchedulerRecord record, FleetPlan plan, HeldLock termination) {
        Instant asked = observedInputs.inputs().panicAt().orElseThrow();
        if (plan.scaling().orElse(null) instanceof FleetPlan.ScaleUp up) {
            termination.ensureHeld();
            context.actions().scaleUp(scheduler, record.version(), up.count(), up.reason());
            recordScale(record, context.tasks().clock().instant(), termination);
        }
        for (int attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
            VersionedScaleInputs stored = context.schedulers().loadScaleInputs(scheduler);
            if (stored.inputs().panicAt().filter(at -> !at.isAfter(asked)).isEmpty()
                    || context.schedulers().saveScaleInputs(scheduler, stored.inputs().withoutPanic(), stored.version())) {
                return;
            }
        }
    }

    private void autoscale(SchedulerRecord record, FleetPlan plan, Held held, HeldLock termination) {
        Instant now = context.tasks().clock().instant();
        AutoscalerTicks.record(context.usageHistory(), scheduler, plan.usagePoints(), plan.usageKeep());
        boolean applied = false;
        try {
            applied = scale(record, plan, held, termination, now);
        } finally {
            // The state follows what happened: in-sync after a scale, the held state when it could not be applied.
            Optional<SchedulerState> state = plan.stateAfter(applied);
            if (state.isPresent()) {
                termination.ensureHeld();
                context.schedulers().setState(scheduler, state.get().wireName(), now, termination.fence());
            }
        }
    }

    /** Applies the plan's scaling, if any; returns whether a change in the number of rooms was applied. */
    private boolean scale(SchedulerRecord record, FleetPlan plan, Held held, HeldLock termination, Instant now) {
        if (plan.scaling().orElse(null) instanceof FleetPlan.ScaleUp up) {
            termination.ensureHeld();
            context.actions().scaleUp(scheduler, record.version(), up.count(), up.reason());
            recordScale(record, now, termination);
            return true;
        }
        if (plan.scaling().orElse(null) instanceof FleetPlan.ScaleDown down) {
            if (held.downscaleHandedOver) {
                return false; // DOWNSCALE went to a replace or a removal this tick: decide again next tick
            }
            if (held.downscale.isEmpty()) {
                held.downscale = held.scope.tryAcquire(LockId.of(scheduler, LockKind.DOWNSCALE));
            }
            if (held.downscale.isEmpty()) {
                return false; // another worker is removing or replacing rooms: decide again next tick
            }
            removeUnder(held, () -> {
                held.downscale.get().ensureHeld();
                context.actions().scaleDown(scheduler, down.rooms(), down.reason());
            }, down.rooms());
            recordScale(record, now, termination);
            return true;
        }
        return false;
    }

    /** A scale was applied: the last successful scale moves to this tick (the planner's rule). */
    private void recordScale(SchedulerRecord record, Instant now, HeldLock termination) {
        FleetPlanner.lastScaleAfter(record.lastScaleAt(), true, now)
                .ifPresent(at -> context.schedulers().setLastScaleAt(scheduler, at, termination.fence()));
    }

    private void startReplace(SchedulerVersion version, MaxSurge maxSurge, Held held) {
        HeldLock downscale = held.downscale.orElseThrow();
        replacing.set(true);
        held.downscaleHandedOver = true;
        new RollingReplace(scheduler, version, maxSurge, context.replaceTimeout(),
                context.pollInterval(), context.actions(), () -> stopped, downscale::isLost).start()
                .whenComplete((status, error) -> {
                    held.scope.close();
                    replacing.set(false);
                });
    }

    /**
     * Removes rooms and keeps DOWNSCALE until they are gone (or the replace timeout passes), so the autoscaler
     * decides on counts that no longer include them.
     */
    private void removeUnder(Held held, Runnable remove, List<String> rooms) {
        removing.set(true);
        held.downscaleHandedOver = true;
        try {
            remove.run();
        } catch (RuntimeException e) {
            held.scope.close();
            removing.set(false);
            throw e;
        }
        context.actions().waitUntilGone(scheduler, rooms, context.tasks().clock().instant().plus(context.replaceTimeout()))
                .whenComplete((done, error) -> {
                    held.scope.close();
                    removing.set(false);
                });
    }

    private void step(String name, Runnable body) {
        try {
            body.run();
        } catch (RuntimeException e) {
            failed(name, e);
        }
    }

    /** A step failed: logged, and kept as this scheduler's error until a tick passes without one. */
    private void failed(String step, RuntimeException e) {
        LOG.warn("watcher of {}: {} failed; retrying next tick", scheduler, step, e);
        failedThisTick = true;
        String why = e.getMessage() == null || e.getMessage().isBlank() ? "unexpected failure" : e.getMessage();
        lastError = Optional.of(step + " failed at " + context.tasks().clock().instant() + ": " + why);
    }

    /**
     * The error of this scheduler's last tick, if a step of it failed (cleared by the next tick without a failure):
     * what the worker could not do, for the scheduler's status.
     *
     * @return the failed step, when, and why
     */
    public Optional<String> lastError() {
        return lastError;
    }

    /**
     * Looks after the releases another owner left (it crashed, shut down, or lost its lease), under CONFIG: holding
     * it means no live owner is running an operation on the scheduler. A persisted release in progress is
     * <b>resumed</b> here (under CONFIG and DOWNSCALE, through the same {@link RollingReplace} an update uses, its
     * first decision a {@link dev.hotspare.fleet.plan.ReleaseMachine.ReleaseEvent.Resume}); the statuses a finished release implies
     * are recorded again in case its owner stopped before recording them; a release left IN_PROGRESS with no
     * persisted state is marked INTERRUPTED. A lock busy (an update runs, or a dead owner's lease has not run out yet)
     * means: look again next tick.
     */
    private void resumeReleases() {
        if (resuming.get()) {
            return;
        }
        Optional<VersionedRelease> persisted = context.schedulers().loadRelease(scheduler);
        boolean inProgress = persisted.isPresent() && !persisted.get().state().terminal();
        boolean outcomesMissing = persisted.isPresent() && ReleaseMachine.outcomes(persisted.get().state()).stream()
                .anyMatch(command -> statusOf(((ReleaseCommand.SetReleaseStatus) command).version()) == OperationStatus.IN_PROGRESS);
        boolean legacy = context.schedulers().releases(scheduler).stream().anyMatch(r -> r.status() == OperationStatus.IN_PROGRESS);
        releasePending = inProgress;
        if (!inProgress && !outcomesMissing && !legacy) {
            releasesChecked = true;
            return;
        }
        LockScope scope = context.locks().newScope();
        boolean handedToRelease = false;
        try {
            Optional<HeldLock> config = scope.tryAcquire(LockId.of(scheduler, LockKind.CONFIG));
            if (config.isEmpty()) {
                return;
            }
            SchedulerUpdates.markInterrupted(context.schedulers(), scheduler, config.get());
            Optional<VersionedRelease> now = context.schedulers().loadRelease(scheduler);
            if (now.isEmpty()) {
                releasesChecked = true;
                releasePending = false;
                return;
            }
            if (now.get().state().terminal()) {
                releasesChecked = true; // its statuses were settled just above
                releasePending = false;
                return;
            }
            RollingReplace.Ledger ledger = new RollingReplace.Ledger(context.schedulers(), scheduler, config.get(),
                    context.events(), now.get().version());
            Optional<HeldLock> downscale = scope.tryAcquire(LockId.of(scheduler, LockKind.DOWNSCALE));
            if (downscale.isEmpty()) {
                return;
            }
            LOG.info("scheduler {}: resuming release {} in phase {} left by another owner", scheduler,
                    now.get().state().target(), now.get().state().phase());
            resuming.set(true);
            handedToRelease = true;
            HeldLock down = downscale.get();
            new RollingReplace(scheduler, now.get().state(), true, Optional.of(ledger), context.pollInterval(),
                    context.actions(), () -> false, () -> config.get().isLost() || down.isLost(), () -> stopped).start()
                    .whenComplete((status, error) -> {
                        scope.close();
                        resuming.set(false);
                        releasesChecked = false; // handed over again, or done: the next tick looks once more
                    });
        } finally {
            if (!handedToRelease) {
                scope.close();
            }
        }
    }

    private OperationStatus statusOf(SchedulerVersion version) {
        return context.schedulers().release(scheduler, version).map(Release::status).orElse(OperationStatus.DEPLOYED);
    }

    private Map<ResourceMetric, UsageReading> resourceUsage(SchedulerConfig config) {
        Map<ResourceMetric, UsageReading> usage = new EnumMap<>(ResourceMetric.class);
        for (ResourceMetric metric : usedMetrics(config)) {
            usage.put(metric, context.usageMetrics().usage(scheduler, metric));
        }
        return usage;
    }

    /**
     * The resource metrics this config's triggers can read. A reading costs a metrics-API call per metric on
     * Kubernetes, every tick; room and legacy triggers read none. A trigger of a plug-in type may read any.
     */
    public static Set<ResourceMetric> usedMetrics(SchedulerConfig config) {
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
