package dev.hotspare.fleet.runtime;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.HeldLock;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockKind;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.LockScope;
import dev.hotspare.fleet.lock.WaitPolicy;
import dev.hotspare.fleet.spi.OperationStatus;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.versions.ChangeKind;
import dev.hotspare.fleet.versions.ConfigDiff;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.pool.DesiredPower;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.ScaleOperation;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spi.StoreUnavailableException;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Maestro's scheduler management operations, each under exactly the locks the lock protocol names
 * (docs/locks.md). Rooms are members of the pool named after the scheduler in the {@link MemberDriver}, their
 * template version is the scheduler version they were created from ({@code v2.0}); a room is replaced only
 * when its major differs from the scheduler's.
 *
 * <p>Synchronous parts (validation, load, diff, save) run on the caller's thread; waiting for locks, rolling
 * replaces and waiting for removed rooms to go run on the {@link TaskScheduler}, so every operation works
 * unchanged on virtual time.
 */
public final class SchedulerOperations {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerOperations.class);

    /** Default share of current rooms replaced at once. */
    public static final int DEFAULT_MAX_SURGE_PERCENT = 25;

    private final SchedulerStore store;
    private final LockManager locks;
    private final MemberDriver driver;
    private final TaskScheduler tasks;
    private final EventDispatcher events;
    private final Function<ConfigDocument, List<Problem>> validator;
    private final Duration replaceTimeout;
    private final Duration lockWait;
    private final Duration pollInterval;
    private final Optional<dev.hotspare.fleet.spi.RoomStatusStore> roomStatuses;
    private final FleetListener kpis;

    private SchedulerOperations(Builder b) {
        this.kpis = FleetListener.guarded(b.kpis);
        this.store = b.store;
        this.locks = b.locks;
        this.driver = b.driver;
        this.tasks = b.tasks;
        this.events = b.events;
        this.validator = b.validator;
        this.replaceTimeout = b.replaceTimeout;
        this.lockWait = b.lockWait;
        this.pollInterval = b.pollInterval;
        this.roomStatuses = b.roomStatuses;
    }

    /** A builder over the stores, locks, driver and scheduler every operation needs. */
    public static Builder builder(SchedulerStore store, LockManager locks, MemberDriver driver, TaskScheduler tasks) {
        return new Builder(store, locks, driver, tasks);
    }

    // --- create / update ---------------------------------------------------------------------------------------

    /**
     * Creates a scheduler from {@code submitted} (YAML or JSON) at v1.0. Rooms are created by the watcher
     * (autoscaling to min), not here.
     */
    public SchedulerRecord create(String submitted) {
        ConfigDocument config = parse(submitted);
        String name = nameOf(config);
        Instant now = tasks.clock().instant();
        if (!store.create(name, config, "creating", now)) {
            throw new SchedulerOperationException(ErrorCode.ALREADY_EXISTS, Problem.of("name", name, "a scheduler of this name exists"));
        }
        return store.get(name).orElseThrow();
    }

    /**
     * Updates scheduler {@code name} to {@code submitted}: CONFIG → SCALE (load, diff, save the new version)
     * → release SCALE → for a major change DOWNSCALE and a rolling replace in chunks of
     * {@code maxSurgePercent} → release DOWNSCALE → record the outcome → release CONFIG. Returns once the
     * version is saved. CONFIG and SCALE are tried once: if another operation holds them the update is
     * refused with {@link ErrorCode#LOCKED}, as in Maestro.
     */
    public UpdateHandle update(String name, String submitted, int maxSurgePercent) {
        ConfigDocument config = parse(submitted);
        String inBody = nameOf(config);
        if (!inBody.equals(name)) {
            throw new SchedulerOperationException(ErrorCode.NAME_MISMATCH,
                    Problem.of("name", inBody, "differs from the scheduler in the path, '" + name + "'"));
        }
        if (maxSurgePercent < 1 || maxSurgePercent > 100) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("maxSurge", maxSurgePercent, "must be a percentage in 1..100"));
        }
        return updateTo(name, current -> config, maxSurgePercent);
    }

    /** {@link #update} with the default maxSurge of 25%. */
    public UpdateHandle update(String name, String submitted) {
        return update(name, submitted, DEFAULT_MAX_SURGE_PERCENT);
    }

    /** Sets the image; nothing happens (no version) when it is already that image. */
    public UpdateHandle updateImage(String name, Optional<String> image) {
        String newImage = image.filter(s -> !s.isBlank()).orElseThrow(() ->
                new SchedulerOperationException(ErrorCode.MISSING_FIELD, Problem.of("image", Problem.MISSING, "required")));
        return updateTo(name, current -> withField(current, "image", Documents.json().getNodeFactory().textNode(newImage)),
                DEFAULT_MAX_SURGE_PERCENT);
    }

    /** Sets autoscaling.min; nothing happens when it is already that min. */
    public UpdateHandle updateMin(String name, Optional<Integer> min) {
        int newMin = min.orElseThrow(() ->
                new SchedulerOperationException(ErrorCode.MISSING_FIELD, Problem.of("min", Problem.MISSING, "required")));
        if (newMin < 0) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("min", newMin, "must not be negative"));
        }
        return updateTo(name, current -> {
            ObjectNode tree = (ObjectNode) current.tree();
            JsonNode autoscaling = tree.path("autoscaling");
            ObjectNode updated = autoscaling.isObject() ? (ObjectNode) autoscaling : tree.putObject("autoscaling");
            updated.put("min", newMin);
            tree.set("autoscaling", updated);
            return render(tree);
        }, DEFAULT_MAX_SURGE_PERCENT);
    }

    /** Updates to the config of release {@code version} (an update like any other, so it gets a new version). */
    public UpdateHandle rollback(String name, SchedulerVersion version) {
        Release release = store.release(name, version).orElseThrow(() -> notFound(name, version));
        return updateTo(name, current -> release.config(), DEFAULT_MAX_SURGE_PERCENT);
    }

    private UpdateHandle updateTo(String name, Function<ConfigDocument, ConfigDocument> change, int maxSurgePercent) {
        Names.requireDns1123Label("scheduler", name);
        LockScope scope = locks.newScope();
        try {
            HeldLock config = scope.tryAcquire(LockId.of(name, LockKind.CONFIG)).orElseThrow(() -> locked(name, LockKind.CONFIG));
            SchedulerRecord current;
            ConfigDocument wanted;
            ConfigDiff diff;
            SchedulerVersion saved;
            try (HeldLock scale = scope.tryAcquire(LockId.of(name, LockKind.SCALE)).orElseThrow(() -> locked(name, LockKind.SCALE))) {
                current = store.get(name).orElseThrow(() -> notFound(name));
                wanted = change.apply(current.config());
                validate(wanted);
                diff = ConfigDiff.between(current.config().tree(), wanted.tree());
                if (diff.kind() == ChangeKind.NONE) {
                    scope.close();
                    return new UpdateHandle(current.version(), diff, CompletableFuture.completedFuture(OperationStatus.DEPLOYED), () -> { });
                }
                saved = current.version().next(diff.kind());
                scale.ensureHeld();
                store.saveVersion(name, saved, wanted, tasks.clock().instant(), config.fence());
            }
            events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_UPDATED, name, tasks.clock().instant(),
                    Map.of("version", saved.toString(), "change", diff.kind().name())));
            if (!diff.isMajor()) {
                store.setStatus(name, saved, OperationStatus.DEPLOYED, config.fence());
                scope.close();
                return new UpdateHandle(saved, diff, CompletableFuture.completedFuture(OperationStatus.DEPLOYED), () -> { });
            }
            AtomicBoolean cancel = new AtomicBoolean();
            CompletableFuture<OperationStatus> outcome = replaceUnderDownscale(name, saved, current.config(), maxSurgePercent,
                    scope, config, cancel);
            return new UpdateHandle(saved, diff, outcome, () -> cancel.set(true));
        } catch (RuntimeException e) {
            scope.close();
            throw translate(e);
        }
    }

    /**
     * DOWNSCALE → rolling replace → (on failure: status, save the previous config as a new major, replace
     * again) → release DOWNSCALE → record the outcome → release CONFIG (by closing the scope).
     */
    private CompletableFuture<OperationStatus> replaceUnderDownscale(String name, SchedulerVersion saved, ConfigDocument previous,
                                                                     int maxSurgePercent, LockScope scope, HeldLock config,
                                                                     AtomicBoolean cancel) {
        CompletableFuture<OperationStatus> outcome = new CompletableFuture<>();
        scope.acquire(LockId.of(name, LockKind.DOWNSCALE), WaitPolicy.waitUpTo(lockWait)).whenComplete((downscale, error) -> {
            try {
                if (error != null || downscale.isEmpty()) {
                    store.setStatus(name, saved, OperationStatus.ERROR, config.fence());
                    rollbackAfterFailure(name, previous, config);
                    outcome.complete(OperationStatus.ERROR);
                    return;
                }
                HeldLock down = downscale.get();
                replace(name, saved, maxSurgePercent, cancel::get, () -> config.isLost() || down.isLost()).thenAccept(status -> {
                    try {
                        if (status == OperationStatus.DEPLOYED) {
                            down.release();
                            store.setStatus(name, saved, status, config.fence());
                            outcome.complete(status);
                            return;
                        }
                        store.setStatus(name, saved, status, config.fence());
                        SchedulerVersion restored = rollbackAfterFailure(name, previous, config);
                        replace(name, restored, maxSurgePercent, () -> false, () -> config.isLost() || down.isLost())
                                .thenAccept(rollbackStatus -> {
                                    try {
                                        down.release();
                                        store.setStatus(name, restored, rollbackStatus, config.fence());
                                    } finally {
                                        outcome.complete(status);
                                    }
                                });
                    } catch (RuntimeException e) {
                        LOG.error("update of {} to {} failed while finishing", name, saved, e);
                        outcome.complete(OperationStatus.ERROR);
                    }
                });
            } catch (RuntimeException e) {
                LOG.error("update of {} to {} failed", name, saved, e);
                outcome.complete(OperationStatus.ERROR);
            }
        });
        // CONFIG (and anything else still held) is released on every path once the outcome is known.
        outcome.whenComplete((status, error) -> scope.close());
        return outcome;
    }

    /** Saves the previous config as a new major version (rooms come back to it); returns that version. */
    private SchedulerVersion rollbackAfterFailure(String name, ConfigDocument previous, HeldLock config) {
        config.ensureHeld();
        SchedulerRecord current = store.get(name).orElseThrow(() -> notFound(name));
        SchedulerVersion restored = current.version().nextMajor();
        store.saveVersion(name, restored, previous, tasks.clock().instant(), config.fence());
        events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_UPDATED, name, tasks.clock().instant(),
                Map.of("version", restored.toString(), "change", "ROLLBACK")));
        return restored;
    }

    private CompletableFuture<OperationStatus> replace(String name, SchedulerVersion target, int maxSurgePercent,
                                                       java.util.function.BooleanSupplier cancelled,
                                                       java.util.function.BooleanSupplier leaseLost) {
        return new RollingReplace(name, target, maxSurgePercent, replaceTimeout, pollInterval, driver, tasks, cancelled, leaseLost).start();
    }

    // --- scale / delete ----------------------------------------------------------------------------------------

    /** Creates {@code amount} rooms on the current version. No lock, as in the seed (scale-ups may overlap). */
    public int scaleUp(String name, int amount) {
        if (amount < 1) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaleup", amount, "must be at least 1"));
        }
        SchedulerRecord current = store.get(name).orElseThrow(() -> notFound(name));
        Instant now = tasks.clock().instant();
        for (int i = 0; i < amount; i++) {
            String room = driver.create(name, current.version().toString(), DesiredPower.RUNNING).id();
            roomStatuses.ifPresent(rooms -> rooms.update(name, room, dev.hotspare.fleet.RoomStatus.CREATING, now));
        }
        events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_SCALED, name, tasks.clock().instant(), Map.of("delta", String.valueOf(amount))));
        kpis.scaled(name, ScaleOperation.SCALE_UP, amount);
        return amount;
    }

    /**
     * Removes {@code amount} rooms under DOWNSCALE (waiting for it, so the autoscaler cannot recreate what
     * this removes): outdated rooms first, then the newest. DOWNSCALE is released when they are gone or the
     * replace timeout passes.
     *
     * @return a future of the number of rooms removed
     */
    public CompletableFuture<Integer> scaleDown(String name, int amount) {
        if (amount < 1) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaledown", amount, "must be at least 1"));
        }
        SchedulerRecord current = store.get(name).orElseThrow(() -> notFound(name));
        LockScope scope = locks.newScope();
        CompletableFuture<Integer> removed = new CompletableFuture<>();
        scope.acquire(LockId.of(name, LockKind.DOWNSCALE), WaitPolicy.waitUpTo(lockWait)).whenComplete((lock, error) -> {
            if (error != null || lock.isEmpty()) {
                scope.close();
                removed.completeExceptionally(error != null ? translate(error) : locked(name, LockKind.DOWNSCALE));
                return;
            }
            try {
                java.util.Set<String> ready = roomStatuses.map(rooms -> (java.util.Set<String>) new java.util.HashSet<>(
                        rooms.rooms(name, dev.hotspare.fleet.RoomStatus.READY))).orElse(null);
                List<Member> victims = RollingReplace.liveRooms(driver, name).stream()
                        .filter(m -> ready == null || ready.contains(m.id()))
                        .sorted(Comparator.comparing((Member m) -> !RollingReplace.isOutdated(m, current.version()))
                                .thenComparing(Member.TOTAL_ORDER.reversed()))
                        .limit(amount).toList();
                lock.get().ensureHeld();
                victims.forEach(m -> {
                    driver.delete(name, m.id());
                    roomStatuses.ifPresent(rooms -> rooms.remove(name, m.id()));
                });
                events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_SCALED, name, tasks.clock().instant(),
                        Map.of("delta", String.valueOf(-victims.size()))));
                if (!victims.isEmpty()) {
                    kpis.scaled(name, ScaleOperation.SCALE_DOWN, victims.size());
                }
                waitUntilGone(name, victims.stream().map(Member::id).toList(), tasks.clock().instant().plus(replaceTimeout))
                        .whenComplete((done, e) -> {
                            scope.close();
                            removed.complete(victims.size());
                        });
            } catch (RuntimeException e) {
                scope.close();
                removed.completeExceptionally(translate(e));
            }
        });
        return removed;
    }

    /** Scales to exactly {@code replicas} rooms: up without a lock, down under DOWNSCALE; nothing when equal. */
    public CompletableFuture<Integer> scaleTo(String name, int replicas) {
        if (replicas < 0) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("replicas", replicas, "must not be negative"));
        }
        store.get(name).orElseThrow(() -> notFound(name));
        int current = RollingReplace.liveRooms(driver, name).size();
        if (replicas > current) {
            return CompletableFuture.completedFuture(scaleUp(name, replicas - current));
        }
        if (replicas < current) {
            return scaleDown(name, current - replicas).thenApply(n -> -n);
        }
        return CompletableFuture.completedFuture(0);
    }

    /**
     * Deletes the scheduler under TERMINATION (waiting for it): every room is deleted, and once they are gone
     * (or the replace timeout passes) the scheduler and its releases are removed and the lock released.
     */
    public CompletableFuture<Boolean> delete(String name) {
        store.get(name).orElseThrow(() -> notFound(name));
        LockScope scope = locks.newScope();
        CompletableFuture<Boolean> deleted = new CompletableFuture<>();
        scope.acquire(LockId.of(name, LockKind.TERMINATION), WaitPolicy.waitUpTo(lockWait)).whenComplete((lock, error) -> {
            if (error != null || lock.isEmpty()) {
                scope.close();
                deleted.completeExceptionally(error != null ? translate(error) : locked(name, LockKind.TERMINATION));
                return;
            }
            try {
                HeldLock termination = lock.get();
                store.setState(name, "terminating", tasks.clock().instant(), termination.fence());
                List<String> rooms = RollingReplace.liveRooms(driver, name).stream().map(Member::id).toList();
                rooms.forEach(id -> driver.delete(name, id));
                waitUntilGone(name, rooms, tasks.clock().instant().plus(replaceTimeout)).whenComplete((done, e) -> {
                    try {
                        termination.ensureHeld();
                        boolean removed = store.delete(name, termination.fence());
                        roomStatuses.ifPresent(statuses -> statuses.removeScheduler(name));
                        deleted.complete(removed);
                    } catch (RuntimeException failure) {
                        deleted.completeExceptionally(translate(failure));
                    } finally {
                        scope.close();
                    }
                });
            } catch (RuntimeException e) {
                scope.close();
                deleted.completeExceptionally(translate(e));
            }
        });
        return deleted;
    }

    private CompletableFuture<Void> waitUntilGone(String name, List<String> ids, Instant deadline) {
        return MembersGone.await(driver, tasks, pollInterval, name, ids, deadline);
    }

    // --- reads -------------------------------------------------------------------------------------------------

    /** Releases, oldest first. */
    public List<Release> releases(String name) {
        store.get(name).orElseThrow(() -> notFound(name));
        return store.releases(name);
    }

    /**
     * The seed's diff rules: no version → current vs the one before it; only {@code v1} → {@code v1} vs the one
     * before it; both → {@code v1} vs {@code v2}.
     */
    public VersionDiff diff(String name, Optional<SchedulerVersion> v1, Optional<SchedulerVersion> v2) {
        SchedulerRecord current = store.get(name).orElseThrow(() -> notFound(name));
        List<Release> releases = store.releases(name);
        SchedulerVersion first = v1.orElse(current.version());
        Release newer = releases.stream().filter(r -> r.version().equals(first)).findFirst().orElseThrow(() -> notFound(name, first));
        Release older;
        if (v2.isPresent()) {
            older = releases.stream().filter(r -> r.version().equals(v2.get())).findFirst().orElseThrow(() -> notFound(name, v2.get()));
        } else {
            older = releases.stream().filter(r -> r.version().compareTo(first) < 0).reduce((a, b) -> b)
                    .orElseThrow(() -> new SchedulerOperationException(ErrorCode.VERSION_NOT_FOUND,
                            Problem.of("version", first, "has no previous version to compare with")));
        }
        return new VersionDiff(newer.version(), older.version(), ConfigDiff.between(older.config().tree(), newer.config().tree()));
    }

    /** Status with room counts per room status (with a room status store) and per member phase. */
    public SchedulerStatus status(String name) {
        SchedulerRecord current = store.get(name).orElseThrow(() -> notFound(name));
        Map<MemberPhase, Integer> counts = new EnumMap<>(MemberPhase.class);
        for (MemberPhase phase : MemberPhase.values()) {
            counts.put(phase, 0);
        }
        driver.list(name).forEach(m -> counts.merge(m.phase(), 1, Integer::sum));
        JsonNode game = current.config().tree().path("game");
        return new SchedulerStatus(name, game.isTextual() ? Optional.of(game.asText()) : Optional.empty(), current.version(),
                current.state(), current.stateLastChangedAt(), current.lastScaleAt(),
                roomStatuses.map(rooms -> rooms.counts(name)).orElse(dev.hotspare.fleet.RoomStatusCounts.ZERO), counts);
    }

    /** The config as submitted, of the current version or of {@code version}. */
    public String config(String name, Optional<SchedulerVersion> version) {
        SchedulerRecord current = store.get(name).orElseThrow(() -> notFound(name));
        if (version.isEmpty()) {
            return current.config().submitted();
        }
        return store.release(name, version.get()).orElseThrow(() -> notFound(name, version.get())).config().submitted();
    }

    // --- helpers -----------------------------------------------------------------------------------------------

    private ConfigDocument parse(String submitted) {
        if (submitted == null || submitted.isBlank()) {
            throw new SchedulerOperationException(ErrorCode.MISSING_FIELD, Problem.of("", Problem.MISSING, "a config is required"));
        }
        ConfigDocument config;
        try {
            config = ConfigDocument.of(submitted);
        } catch (ValidationException e) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, e.problems());
        }
        validate(config);
        return config;
    }

    private void validate(ConfigDocument config) {
        List<Problem> problems = new ArrayList<>(validator.apply(config));
        JsonNode name = config.tree().path("name");
        if (name.isMissingNode() || name.isNull()) {
            throw new SchedulerOperationException(ErrorCode.MISSING_FIELD, Problem.of("name", Problem.MISSING, "required"));
        }
        Names.dns1123LabelProblem(name.asText()).ifPresent(why -> problems.add(0, Problem.of("name", name.asText(), why)));
        if (!problems.isEmpty()) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, problems);
        }
    }

    private static String nameOf(ConfigDocument config) {
        return config.tree().path("name").asText();
    }

    private static ConfigDocument withField(ConfigDocument current, String field, JsonNode value) {
        ObjectNode tree = (ObjectNode) current.tree();
        tree.set(field, value);
        return render(tree);
    }

    private static ConfigDocument render(JsonNode tree) {
        try {
            return ConfigDocument.of(Documents.yaml().writeValueAsString(tree));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render config", e);
        }
    }

    private static SchedulerOperationException notFound(String name) {
        return new SchedulerOperationException(ErrorCode.SCHEDULER_NOT_FOUND, Problem.of("scheduler", name, "no scheduler of this name exists"));
    }

    private static SchedulerOperationException notFound(String name, SchedulerVersion version) {
        return new SchedulerOperationException(ErrorCode.VERSION_NOT_FOUND,
                Problem.of("version", version, "scheduler '" + name + "' has no such release"));
    }

    private static SchedulerOperationException locked(String name, LockKind kind) {
        return new SchedulerOperationException(ErrorCode.LOCKED,
                Problem.of("scheduler", name, "its " + kind + " lock is held by another operation; try again later"));
    }

    private static RuntimeException translate(Throwable e) {
        if (e instanceof java.util.concurrent.CompletionException && e.getCause() != null) {
            e = e.getCause();
        }
        if (e instanceof SchedulerOperationException op) {
            return op;
        }
        if (e instanceof dev.hotspare.fleet.spi.SchedulerNotFoundException nf) {
            return notFound(nf.scheduler());
        }
        if (e instanceof StoreUnavailableException unavailable) {
            return new SchedulerOperationException(ErrorCode.UNAVAILABLE, Problem.of("", unavailable.store(), unavailable.getMessage()));
        }
        if (e instanceof ValidationException invalid) {
            return new SchedulerOperationException(ErrorCode.INVALID_CONFIG, invalid.problems());
        }
        return e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }

    /** Builds {@link SchedulerOperations}. */
    public static final class Builder {
        private final SchedulerStore store;
        private final LockManager locks;
        private final MemberDriver driver;
        private final TaskScheduler tasks;
        private EventDispatcher events = EventDispatcher.builder().build();
        private Function<ConfigDocument, List<Problem>> validator = config ->
                dev.hotspare.fleet.SchedulerConfigs.check(config.submitted(), Documents.Format.YAML,
                        dev.hotspare.fleet.TriggerTypes.BUILT_IN).problems();
        private Duration replaceTimeout = Duration.ofMinutes(10);
        private Duration lockWait = Duration.ofMinutes(1);
        private Duration pollInterval = Duration.ofSeconds(1);
        private Optional<dev.hotspare.fleet.spi.RoomStatusStore> roomStatuses = Optional.empty();
        private FleetListener kpis = FleetListener.NONE;

        private Builder(SchedulerStore store, LockManager locks, MemberDriver driver, TaskScheduler tasks) {
            this.store = Objects.requireNonNull(store, "store");
            this.locks = Objects.requireNonNull(locks, "locks");
            this.driver = Objects.requireNonNull(driver, "driver");
            this.tasks = Objects.requireNonNull(tasks, "tasks");
        }

        /** Where scheduler events go (default: none registered). */
        public Builder events(EventDispatcher events) {
            this.events = Objects.requireNonNull(events, "events");
            return this;
        }

        /**
         * Config validation; every problem it returns rejects the config with {@link ErrorCode#INVALID_CONFIG}.
         * Default: the full {@link dev.hotspare.fleet.SchedulerConfigs} rules with the built-in trigger types
         * (pass one with your plug-in trigger types).
         */
        public Builder validator(Function<ConfigDocument, List<Problem>> validator) {
            this.validator = Objects.requireNonNull(validator, "validator");
            return this;
        }

        /** How long a rolling replace (and waiting for removed rooms) may take before it times out. */
        public Builder replaceTimeout(Duration replaceTimeout) {
            this.replaceTimeout = Objects.requireNonNull(replaceTimeout, "replaceTimeout");
            return this;
        }

        /** How long operations wait for DOWNSCALE / TERMINATION. */
        public Builder lockWait(Duration lockWait) {
            this.lockWait = Objects.requireNonNull(lockWait, "lockWait");
            return this;
        }

        /**
         * The room status store: with it, status reports counts per room status, scale-ups register their
         * rooms as creating, scale-downs remove only READY rooms, and removed rooms and deleted schedulers
         * leave no statuses behind.
         */
        public Builder roomStatuses(dev.hotspare.fleet.spi.RoomStatusStore value) {
            this.roomStatuses = Optional.of(Objects.requireNonNull(value, "roomStatuses"));
            return this;
        }

        /** How often room readiness and removal are checked. */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
            return this;
        }

        /**
         * Receives the scale-up and scale-down operations' KPIs (default: none). A listener that throws is
         * logged and ignored. Lock KPIs come from the {@link LockManager}'s own {@code kpis} option.
         */
        public Builder kpis(FleetListener kpis) {
            this.kpis = Objects.requireNonNull(kpis, "kpis");
            return this;
        }

        public SchedulerOperations build() {
            return new SchedulerOperations(this);
        }
    }
}
