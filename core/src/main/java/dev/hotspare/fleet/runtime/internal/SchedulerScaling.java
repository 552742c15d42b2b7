package dev.hotspare.fleet.runtime.internal;

import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.plan.ScaleInputs;
import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.fleet.runtime.SchedulerOperations;
import dev.hotspare.fleet.runtime.SchedulerOperations.ErrorCode;
import dev.hotspare.fleet.runtime.SchedulerOperations.SchedulerOperationException;
import dev.hotspare.fleet.spi.VersionedScaleInputs;
import dev.hotspare.validation.Problem;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Manual scaling (Maestro's scale-up, scale-down and replicas; its add-rooms / remove-rooms operations). A request
 * is checked here, then <b>recorded</b> with the scheduler in its {@link dev.hotspare.fleet.spi.SchedulerStore} as a
 * pending {@link ScaleInputs.Request}, and the scheduler's watcher is woken when it runs in this process. The
 * watcher's planner reads the request on its next tick ({@link FleetPlanner#manual}) and decides, exactly as for the
 * autoscaler's scales: never above {@code max} (when max &gt; 0), never more than {@code maxScaleUpAmount} rooms in
 * one scale-up, never below {@code min}, READY rooms removed in the configured removal ranking's order (by default
 * outdated rooms first, then the newest). The watcher saves its decision before it changes a room and applies it
 * under TERMINATION (plus DOWNSCALE for a removal), so a request survives a crash or a change of owner and is
 * applied once. Each method's future completes when the request was applied — for a removal, once the removed
 * rooms are gone or the replace timeout passed — with the rooms added (positive) or removed (negative for
 * {@link #scaleTo}). Get one from {@link Fleet#scaling()} or {@link SchedulerOperations#scaling()}.
 */
public final class SchedulerScaling {

    /** Attempts at recording a request while other writers save the same scheduler's inputs. */
    private static final int SAVE_ATTEMPTS = 100;

    /** Requests that may wait for one scheduler's watcher; more are refused, so a flood cannot grow the record unbounded. */
    static final int MAX_PENDING = 100;

    private final OperationContext c;

    public SchedulerScaling(OperationContext context) {
        this.c = context;
    }

    /**
     * Asks for up to {@code amount} rooms on the current version: no more than max allows (when max &gt; 0) and the
     * autoscaler's {@code maxScaleUpAmount}; raised to min when it would end below it.
     *
     * @param name   the scheduler
     * @param amount rooms asked for, at least 1
     * @return completes with the rooms created (0 when the scheduler is at max) once a watcher has applied it;
     *         exceptionally when none did within the replace timeout (the request stays recorded)
     */
    public CompletableFuture<Integer> scaleUp(String name, int amount) {
        if (amount < 1) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaleup", amount, "must be at least 1"));
        }
        c.limits.stepProblem("scaleup", amount).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, p);
        });
        c.existing(name);
        int rooms = FleetPlanner.liveRooms(c.driver().list(name)).size();
        c.limits.roomsProblem("scaleup", (long) rooms + amount).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaleup", amount,
                    "would make " + ((long) rooms + amount) + " rooms; the limit of rooms per scheduler is " + c.limits.maxRooms()));
        });
        return request(name, ScaleInputs.Kind.UP, amount);
    }

    /**
     * Asks to remove up to {@code amount} READY rooms, never going below min, in the configured removal ranking's
     * order. The watcher removes them under DOWNSCALE (waiting for it, so the autoscaler cannot recreate what this
     * removes) and keeps it until they are gone.
     *
     * @param name   the scheduler
     * @param amount rooms asked for, at least 1
     * @return completes with the number of rooms removed once they are gone (or the replace timeout passed)
     */
    public CompletableFuture<Integer> scaleDown(String name, int amount) {
        if (amount < 1) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaledown", amount, "must be at least 1"));
        }
        c.limits.stepProblem("scaledown", amount).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, p);
        });
        c.existing(name);
        return request(name, ScaleInputs.Kind.DOWN, amount).thenApply(Math::negateExact);
    }

    /**
     * Asks to scale toward {@code replicas} rooms, clamped to [min, max]: up by at most {@code maxScaleUpAmount} at
     * once, down under DOWNSCALE; nothing when equal.
     *
     * @param name     the scheduler
     * @param replicas rooms asked for, at least 0
     * @return completes with the rooms added (positive) or removed (negative) once applied
     */
    public CompletableFuture<Integer> scaleTo(String name, int replicas) {
        if (replicas < 0) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("replicas", replicas, "must not be negative"));
        }
        c.limits.roomsProblem("replicas", replicas).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, p);
        });
        c.existing(name);
        return request(name, ScaleInputs.Kind.REPLICAS, replicas);
    }

    /** Records the request, wakes the watcher, and completes with its outcome's delta once applied. */
    private CompletableFuture<Integer> request(String name, ScaleInputs.Kind kind, int amount) {
        ScaleInputs.Request request = new ScaleInputs.Request(UUID.randomUUID().toString(), kind, amount, c.tasks.clock().instant());
        try {
            record(name, request);
        } catch (RuntimeException e) {
            throw OperationContext.translate(e);
        }
        c.wake.accept(name);
        return outcome(name, request);
    }

    private void record(String name, ScaleInputs.Request request) {
        for (int attempt = 0; attempt < SAVE_ATTEMPTS; attempt++) {
            VersionedScaleInputs stored = c.store.loadScaleInputs(name);
            if (stored.inputs().pending().size() >= MAX_PENDING) {
                throw new SchedulerOperationException(ErrorCode.LOCKED, Problem.of("scheduler", name,
                        MAX_PENDING + " scale requests already wait for its watcher; try again once they are applied"));
            }
            if (c.store.saveScaleInputs(name, stored.inputs().withRequest(request), stored.version())) {
                return;
            }
        }
        throw new SchedulerOperationException(ErrorCode.UNAVAILABLE, Problem.of("scheduler", name,
                "its scale inputs changed under " + SAVE_ATTEMPTS + " attempts to record the request; try again"));
    }

    /**
     * Polls the store (on the task scheduler, first at once, then every poll interval) until the request's outcome
     * is saved; for a removal, then waits until the removed rooms are gone.
     */
    private CompletableFuture<Integer> outcome(String name, ScaleInputs.Request request) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        Instant deadline = c.tasks.clock().instant().plus(c.replaceTimeout);
        Runnable[] check = new Runnable[1];
        check[0] = () -> {
            try {
                VersionedScaleInputs stored = c.store.loadScaleInputs(name);
                Optional<ScaleInputs.Outcome> outcome = stored.inputs().outcome(request.id());
                if (outcome.isPresent()) {
                    ScaleInputs.Outcome o = outcome.get();
                    if (o.removed().isEmpty()) {
                        done.complete(o.delta());
                    } else {
                        c.actions.waitUntilGone(name, o.removed(), c.tasks.clock().instant().plus(c.replaceTimeout))
                                .whenComplete((gone, error) -> done.complete(o.delta()));
                    }
                } else if (!stored.inputs().waiting(request.id())) {
                    // Neither waiting nor answered: the scheduler was deleted with its inputs, or so many requests
                    // were applied since that this one's outcome is no longer kept.
                    done.completeExceptionally(c.store.get(name).isEmpty() ? OperationContext.notFound(name)
                            : new SchedulerOperationException(ErrorCode.UNAVAILABLE, Problem.of("scheduler", name,
                            "the request was applied; its outcome is no longer kept (more than "
                                    + ScaleInputs.KEPT_OUTCOMES + " requests since)")));
                } else if (!c.tasks.clock().instant().isBefore(deadline)) {
                    done.completeExceptionally(new SchedulerOperationException(ErrorCode.UNAVAILABLE, Problem.of("scheduler", name,
                            "no worker applied the " + request.kind().name().toLowerCase(java.util.Locale.ROOT)
                                    + " request within " + c.replaceTimeout + "; it stays recorded and the scheduler's owner applies it")));
                } else {
                    c.tasks.schedule(c.pollInterval, check[0]);
                }
            } catch (RuntimeException e) {
                done.completeExceptionally(OperationContext.translate(e));
            }
        };
        c.tasks.schedule(Duration.ZERO, check[0]);
        return done;
    }
}
