package dev.hotspare.fleet.runtime.internal;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.SchedulerConfig.MaxSurge;
import dev.hotspare.fleet.events.FleetEvent;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockId.LockKind;
import dev.hotspare.fleet.lock.LockManager.HeldLock;
import dev.hotspare.fleet.lock.LockManager.LockScope;
import dev.hotspare.fleet.lock.LockManager.WaitPolicy;
import dev.hotspare.fleet.plan.ReleaseMachine;
import dev.hotspare.fleet.plan.ReleaseMachine.ReleaseCommand;
import dev.hotspare.fleet.plan.ReleaseState;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.SchedulerOperations.ErrorCode;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerOperationException;
import dev.hotspare.fleet.runtime.SchedulerOperations.UpdateHandle;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.fleet.spi.SchedulerStore.VersionedRelease;
import dev.hotspare.fleet.versions.ConfigDiff;
import dev.hotspare.fleet.versions.ConfigDiff.ChangeKind;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.json.Documents;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
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
 * The scheduler lifecycle: create, update (a whole config, the image, min), roll back, delete — each under
 * exactly the locks the lock protocol names (docs/locks.md). A version's major change replaces rooms in maxSurge
 * chunks under DOWNSCALE and rolls back on timeout, cancel or error. Validation, load, diff and save run on the
 * caller's thread; waiting for locks, rolling replaces and waiting for removed rooms run on the
 * {@link TaskScheduler}, so every operation works unchanged on virtual time. Get one from
 * {@link Fleet#updates()} or {@link SchedulerOperations#updates()}.
 */
public final class SchedulerUpdates {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerUpdates.class);

    private final OperationContext c;

    public SchedulerUpdates(OperationContext context) {
        this.c = context;
    }

    /**
     * Creates a scheduler from {@code submitted} (YAML or JSON) at v1.0. Rooms are created by the watcher
     * (autoscaling to min), not here.
     *
     * @param submitted the new config, YAML or JSON
     */
    public SchedulerRecord create(String submitted) {
        ConfigDocument config = c.parse(submitted);
        String name = c.nameOf(config);
        Instant now = c.tasks.clock().instant();
        if (!c.store.create(name, config, "creating", now)) {
            throw new SchedulerOperationException(ErrorCode.ALREADY_EXISTS, Problem.of("name", name, "a scheduler of this name exists"));
        }
        return c.store.get(name).orElseThrow();
    }

    /**
     * Updates scheduler {@code name} to {@code submitted}: CONFIG → SCALE (load, diff, save the new version)
     * → release SCALE → for a major change DOWNSCALE and a rolling replace in chunks of
     * {@code maxSurgePercent} → release DOWNSCALE → record the outcome → release CONFIG. Returns once the
     * version is saved. CONFIG and SCALE are tried once: if another operation holds them the update is
     * refused with {@link ErrorCode#LOCKED}, as in Maestro.
     *
     * @param name            the scheduler
     * @param submitted       the new config, YAML or JSON
     * @param maxSurgePercent the share of rooms replaced at once, 1..100
     * @return the saved version and its outcome to come
     */
    public UpdateHandle update(String name, String submitted, int maxSurgePercent) {
        if (maxSurgePercent < 1 || maxSurgePercent > 100) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("maxSurge", maxSurgePercent, "must be a percentage in 1..100"));
        }
        return update(name, submitted, MaxSurge.percent(maxSurgePercent));
    }

    /**
     * {@link #update(String, String, int)} with {@code maxSurge} a percentage ({@code "25%"}) or a number of rooms
     * ({@code "3"}), as Maestro 10 writes it.
     *
     * @param name      the scheduler
     * @param submitted the new config, YAML or JSON
     * @param maxSurge  rooms replaced at once
     * @return the saved version and its outcome to come
     */
    public UpdateHandle update(String name, String submitted, MaxSurge maxSurge) {
        return update(name, submitted, Optional.of(maxSurge));
    }

    /**
     * {@link #update} with the new config's {@code maxSurge} (default 25%).
     *
     * @param name      the scheduler
     * @param submitted the new config, YAML or JSON
     * @return the saved version and its outcome to come
     */
    public UpdateHandle update(String name, String submitted) {
        return update(name, submitted, Optional.empty());
    }

    private UpdateHandle update(String name, String submitted, Optional<MaxSurge> maxSurge) {
        ConfigDocument config = c.parse(submitted);
        String inBody = c.nameOf(config);
        if (!inBody.equals(name)) {
            throw new SchedulerOperationException(ErrorCode.NAME_MISMATCH,
                    Problem.of("name", inBody, "differs from the scheduler in the path, '" + name + "'"));
        }
        return updateTo(name, current -> config, maxSurge, Optional.empty());
    }

    /**
     * Sets the image; nothing happens (no version) when it is already that image.
     *
     * @param name the scheduler
     */
    public UpdateHandle updateImage(String name, Optional<String> image) {
        String newImage = image.filter(s -> !s.isBlank()).orElseThrow(() ->
                new SchedulerOperationException(ErrorCode.MISSING_FIELD, Problem.of("image", Problem.MISSING, "required")));
        return updateTo(name, current -> c.withField(current, "image", Documents.nodes().textNode(newImage)),
                Optional.empty(), Optional.empty());
    }

    /**
     * Sets autoscaling.min; nothing happens when it is already that min.
     *
     * @param name the scheduler
     */
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
            return c.render(tree);
        }, Optional.empty(), Optional.empty());
    }

    /**
     * Rolls back to the config of release {@code version}: as in Maestro, a new <em>major</em> version whose release
     * says which version it restored ({@link Release#rolledBackTo()}), so every room is replaced. Nothing happens
     * when the current config already is that config.
     *
     * @param name    the scheduler
     * @param version the release to go back to
     * @return the saved version and its outcome to come
     */
    public UpdateHandle rollback(String name, SchedulerVersion version) {
        Release release = c.store.release(name, version).orElseThrow(() -> c.notFound(name, version));
        return updateTo(name, current -> release.config(), Optional.empty(), Optional.of(version));
    }

    /** The rooms a rolling replace to {@code config} replaces at once: the config's {@code maxSurge}, default 25%. */
    private static MaxSurge maxSurgeOf(ConfigDocument config) {
        JsonNode text = config.tree().path("maxSurge");
        return text.isValueNode() ? MaxSurge.parse("maxSurge", text.asString()) : MaxSurge.DEFAULT;
    }

    private UpdateHandle updateTo(String name, Function<ConfigDocument, ConfigDocument> change, Optional<MaxSurge> surge,
                                  Optional<SchedulerVersion> rollbackTo) {
        Names.requireDns1123Label("scheduler", name);
        LockScope scope = c.locks.newScope();
        try {
            HeldLock config = scope.tryAcquire(LockId.of(name, LockKind.CONFIG)).orElseThrow(() -> c.locked(name, LockKind.CONFIG));
            SchedulerRecord current;
            ConfigDocument wanted;
            ConfigDiff diff;
            SchedulerVersion saved;
            try (HeldLock scale = scope.tryAcquire(LockId.of(name, LockKind.SCALE)).orElseThrow(() -> c.locked(name, LockKind.SCALE))) {
                current = c.store.get(name).orElseThrow(() -> c.notFound(name));
                markInterrupted(c.store, name, config);
                if (c.store.loadRelease(name).filter(r -> !r.state().terminal()).isPresent()) {
                    // A release another owner left is resumed by the watcher; a new one must wait for it.
                    throw c.locked(name, LockKind.CONFIG);
                }
                wanted = change.apply(current.config());
                c.validate(wanted);
                diff = ConfigDiff.between(current.config().tree(), wanted.tree());
                if (diff.kind() == ChangeKind.NONE) {
                    scope.close();
                    return new UpdateHandle(current.version(), diff, CompletableFuture.completedFuture(OperationStatus.DEPLOYED), () -> { });
                }
                scale.ensureHeld();
                if (rollbackTo.isPresent()) {
                    saved = current.version().nextMajor();
                    c.store.saveRollback(name, saved, rollbackTo.get(), wanted, c.tasks.clock().instant(), config.fence());
                } else {
                    saved = current.version().next(diff.kind());
                    c.store.saveVersion(name, saved, wanted, c.tasks.clock().instant(), config.fence());
                }
            }
            c.events.publish(FleetEvent.scheduler(FleetEvent.Type.SCHEDULER_UPDATED, name, c.tasks.clock().instant(),
                    rollbackTo.isPresent()
                            ? Map.of("version", saved.toString(), "change", "ROLLBACK", "rolledBackTo", rollbackTo.get().toString())
                            : Map.of("version", saved.toString(), "change", diff.kind().name())));
            MaxSurge maxSurge = surge.orElseGet(() -> maxSurgeOf(wanted));
            if (saved.major() == current.version().major()) {
                c.store.setStatus(name, saved, OperationStatus.DEPLOYED, config.fence());
                scope.close();
                return new UpdateHandle(saved, diff, CompletableFuture.completedFuture(OperationStatus.DEPLOYED), () -> { });
            }
            AtomicBoolean cancel = new AtomicBoolean();
            c.runningUpdates.add(cancel);
            ReleaseState release = ReleaseState.start(saved, Optional.of(current.version()), maxSurge, c.replaceTimeout,
                    c.tasks.clock().instant());
            CompletableFuture<OperationStatus> outcome = replaceUnderDownscale(name, release, scope, config, cancel);
            outcome.whenComplete((status, error) -> c.runningUpdates.remove(cancel));
            return new UpdateHandle(saved, diff, outcome, () -> cancel.set(true));
        } catch (RuntimeException e) {
            scope.close();
            throw c.translate(e);
        }
    }

    /**
     * Saves the release (so that a crash from here on is resumed by the next owner), takes DOWNSCALE and runs it
     * through the {@link dev.hotspare.fleet.plan.ReleaseMachine} until it ends or is handed over; then releases
     * DOWNSCALE and CONFIG (by closing the scope), and only then completes the returned outcome. Without DOWNSCALE
     * the release fails at once: the previous config is saved again, and the rollback is left saved for the watcher
     * to run once the lock is free.
     */
    private CompletableFuture<OperationStatus> replaceUnderDownscale(String name, ReleaseState release, LockScope scope,
                                                                     HeldLock config, AtomicBoolean cancel) {
        CompletableFuture<OperationStatus> outcome = new CompletableFuture<>();
        long stored = c.store.loadRelease(name).map(VersionedRelease::version).orElse(0L);
        RollingReplace.Ledger ledger = new RollingReplace.Ledger(c.store, name, config, c.events, stored);
        try {
            ledger.save(release);
        } catch (RuntimeException e) {
            scope.close();
            throw e;
        }
        scope.acquire(LockId.of(name, LockKind.DOWNSCALE), WaitPolicy.waitUpTo(c.lockWait)).whenComplete((downscale, error) -> {
            try {
                if (error != null || downscale.isEmpty()) {
                    RollingReplace failed = new RollingReplace(name, release, false, Optional.of(ledger), c.pollInterval,
                            c.actions, () -> false, () -> true, () -> false);
                    failed.start().whenComplete((status, e) -> outcome.complete(OperationStatus.ERROR));
                    return;
                }
                HeldLock down = downscale.get();
                new RollingReplace(name, release, false, Optional.of(ledger), c.pollInterval, c.actions, cancel::get,
                        () -> config.isLost() || down.isLost(), c.stopping::get).start()
                        .whenComplete((status, e) -> outcome.complete(e == null ? status : OperationStatus.ERROR));
            } catch (RuntimeException e) {
                LOG.error("update of {} to {} failed", name, release.target(), e);
                outcome.complete(OperationStatus.ERROR);
            }
        });
        // CONFIG (and anything else still held) is released on every path once the outcome is known, and only then
        // does the caller get the outcome: a client waiting for it (?wait=true) that acts at once must not find this
        // operation's own locks still held and be refused LOCKED.
        CompletableFuture<OperationStatus> released = outcome.whenComplete((status, error) -> scope.close());
        c.unreleasedUpdates.add(released);
        released.whenComplete((status, error) -> c.unreleasedUpdates.remove(released));
        return released;
    }

    /**
     * Settles the releases of {@code name} still {@link OperationStatus#IN_PROGRESS} that no live owner runs (the
     * caller holds CONFIG, so none does): a finished persisted release gets the statuses its end implies (its owner
     * stopped between saving the end and recording it); a persisted release in progress is left alone (the watcher
     * resumes it); any other is marked {@link OperationStatus#INTERRUPTED} — left by an owner that stopped between
     * saving the version and saving its release, or by a version of hotspare that did not persist releases.
     *
     * @return how many releases were marked INTERRUPTED
     */
    public static int markInterrupted(SchedulerStore store, String name, HeldLock config) {
        Optional<ReleaseState> persisted = store.loadRelease(name).map(VersionedRelease::state);
        for (ReleaseCommand command : persisted.map(ReleaseMachine::outcomes).orElse(List.of())) {
            ReleaseCommand.SetReleaseStatus set = (ReleaseCommand.SetReleaseStatus) command;
            if (store.release(name, set.version()).map(Release::status).orElse(null) == OperationStatus.IN_PROGRESS) {
                config.ensureHeld();
                store.setStatus(name, set.version(), RollingReplace.status(set.outcome()), config.fence());
            }
        }
        Optional<ReleaseState> running = persisted.filter(r -> !r.terminal());
        int marked = 0;
        for (Release release : store.releases(name)) {
            boolean resumable = running.isPresent() && (release.version().equals(running.get().target())
                    || release.version().equals(running.get().restored()));
            if (release.status() == OperationStatus.IN_PROGRESS && !resumable) {
                config.ensureHeld();
                store.setStatus(name, release.version(), OperationStatus.INTERRUPTED, config.fence());
                LOG.warn("scheduler {}: release {} was left in progress by an owner that stopped; marked INTERRUPTED",
                        name, release.version());
                marked++;
            }
        }
        return marked;
    }

    /**
     * Asks every rolling update running in this process to stop and roll back (a shutdown's first step); their
     * callers get CANCELED.
     */
    public void cancelRunning() {
        c.runningUpdates.forEach(cancel -> cancel.set(true));
    }

    /**
     * Hands the running releases over (a shutdown's last step, when its grace period is nearly over): each stops at
     * its next poll, between two decisions, and releases its locks, leaving its persisted state — replacing or
     * rolling back — for the next owner of the scheduler to resume. Their callers get the failure they roll back
     * from, or {@link OperationStatus#INTERRUPTED} when they were still replacing.
     */
    public void stopRunning() {
        c.stopping.set(true);
    }

    /**
     * Completes once every rolling update started through these operations has ended or been handed over and has
     * released its locks (at once when none runs). A shutdown waits for it after {@link #stopRunning()}: a handed-over
     * release stops only at its next poll, and a process that exits before then leaves CONFIG and DOWNSCALE held
     * until their TTL, keeping the next owner from resuming the release meanwhile.
     *
     * @return a future that never completes exceptionally
     */
    public CompletableFuture<Void> whenLocksReleased() {
        return CompletableFuture.allOf(c.unreleasedUpdates.toArray(CompletableFuture[]::new)).handle((ignored, error) -> null);
    }

    /**
     * Deletes the scheduler under TERMINATION (waiting for it): every room is deleted, and once they are gone
     * (or the replace timeout passes) the scheduler and its releases are removed and the lock released.
     *
     * @param name the scheduler
     * @return deletes the scheduler under TERMINATION (waiting for it): every room is deleted, and once they are gone
     *         (or the replace timeout passes) the scheduler and its releases are removed and the lock released
     */
    public CompletableFuture<Boolean> delete(String name) {
        c.existing(name);
        LockScope scope = c.locks.newScope();
        CompletableFuture<Boolean> deleted = new CompletableFuture<>();
        scope.acquire(LockId.of(name, LockKind.TERMINATION), WaitPolicy.waitUpTo(c.lockWait)).whenComplete((lock, error) -> {
            if (error != null || lock.isEmpty()) {
                scope.close();
                deleted.completeExceptionally(error != null ? OperationContext.translate(error) : OperationContext.locked(name, LockKind.TERMINATION));
                return;
            }
            try {
                HeldLock termination = lock.get();
                c.store.setState(name, "terminating", c.tasks.clock().instant(), termination.fence());
                List<String> rooms = c.actions.removeAll(name);
                c.actions.waitUntilGone(name, rooms, c.tasks.clock().instant().plus(c.replaceTimeout)).whenComplete((done, e) -> {
                    try {
                        termination.ensureHeld();
                        boolean removed = c.store.delete(name, termination.fence());
                        c.actions.statuses().ifPresent(statuses -> statuses.removeScheduler(name));
                        deleted.complete(removed);
                    } catch (RuntimeException failure) {
                        deleted.completeExceptionally(OperationContext.translate(failure));
                    } finally {
                        scope.close();
                    }
                });
            } catch (RuntimeException e) {
                scope.close();
                deleted.completeExceptionally(OperationContext.translate(e));
            }
        });
        return deleted;
    }

}
