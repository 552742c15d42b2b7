package dev.hotspare.fleet.runtime;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import dev.hotspare.fleet.Autoscaling;
import dev.hotspare.fleet.lock.LockId;
import dev.hotspare.fleet.lock.LockKind;
import dev.hotspare.fleet.lock.LockScope;
import dev.hotspare.fleet.lock.WaitPolicy;
import dev.hotspare.fleet.plan.FleetPlan;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.runtime.internal.RoomActions;
import dev.hotspare.fleet.spi.SchedulerRecord;
import dev.hotspare.pool.Member;
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
 * Manual scaling (Maestro's scale-up, scale-down and replicas), clamped exactly as the watcher clamps its own scales:
 * never above {@code max} (when max &gt; 0), never more than {@code maxScaleUpAmount} rooms in one scale-up, never
 * below {@code min}. Scale-ups take no lock (they may overlap, as in Maestro); scale-downs wait for DOWNSCALE, so the
 * autoscaler cannot recreate what they remove, and remove READY rooms in the configured removal ranking's order (by
 * default outdated rooms first, then the newest) — the same rule as the autoscaler's scale-downs. Every change goes
 * through {@link RoomActions}, so events and KPIs are the same as for any scale. Get one from
 * {@link Fleet#scaling()} or {@link SchedulerOperations#scaling()}.
 */
public final class SchedulerScaling {

    private final OperationContext c;

    SchedulerScaling(OperationContext context) {
        this.c = context;
    }

    /**
     * Creates up to {@code amount} rooms on the current version: no more than max allows (when max &gt; 0) and the
     * autoscaler's {@code maxScaleUpAmount}. No lock, as in Maestro (scale-ups may overlap).
     *
     * @param name   the scheduler
     * @param amount rooms asked for, at least 1
     * @return the rooms created (0 when the scheduler is at max)
     */
    public int scaleUp(String name, int amount) {
        if (amount < 1) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaleup", amount, "must be at least 1"));
        }
        c.limits.stepProblem("scaleup", amount).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, p);
        });
        SchedulerRecord current = c.existing(name);
        int rooms = FleetPlanner.liveRooms(c.driver().list(name)).size();
        c.limits.roomsProblem("scaleup", (long) rooms + amount).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaleup", amount,
                    "would make " + ((long) rooms + amount) + " rooms; the limit of rooms per scheduler is " + c.limits.maxRooms()));
        });
        try {
            int count = c.planner.manualScaleUp(autoscaling(current), activeRooms(name), amount);
            if (count > 0) {
                c.actions.scaleUp(name, current.version(), count, FleetPlan.ScaleReason.MANUAL);
            }
            return count;
        } catch (RuntimeException e) {
            throw OperationContext.translate(e);
        }
    }

    /**
     * Removes up to {@code amount} rooms under DOWNSCALE (waiting for it, so the autoscaler cannot recreate what this
     * removes), never going below min, in the configured removal ranking's order; with a room status store only
     * READY rooms go. DOWNSCALE is released when they are gone or the replace timeout passes.
     *
     * @param name   the scheduler
     * @param amount rooms asked for, at least 1
     * @return a future of the number of rooms removed
     */
    public CompletableFuture<Integer> scaleDown(String name, int amount) {
        if (amount < 1) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("scaledown", amount, "must be at least 1"));
        }
        c.limits.stepProblem("scaledown", amount).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, p);
        });
        return removeRooms(name, amount);
    }

    /** Removes up to {@code amount} rooms (an amount already bounded by the rooms that exist). */
    private CompletableFuture<Integer> removeRooms(String name, int amount) {
        SchedulerRecord current = c.existing(name);
        Autoscaling autoscaling = autoscaling(current);
        LockScope scope = c.locks.newScope();
        CompletableFuture<Integer> removed = new CompletableFuture<>();
        scope.acquire(LockId.of(name, LockKind.DOWNSCALE), WaitPolicy.waitUpTo(c.lockWait)).whenComplete((lock, error) -> {
            if (error != null || lock.isEmpty()) {
                scope.close();
                removed.completeExceptionally(error != null ? OperationContext.translate(error)
                        : OperationContext.locked(name, LockKind.DOWNSCALE));
                return;
            }
            try {
                java.util.Set<String> ready = c.actions.statuses().map(rooms -> (java.util.Set<String>) new java.util.HashSet<>(
                        rooms.rooms(name, dev.hotspare.fleet.RoomStatus.READY))).orElse(null);
                List<Member> candidates = FleetPlanner.liveRooms(c.driver().list(name)).stream()
                        .filter(m -> ready == null || ready.contains(m.id())).toList();
                int count = FleetPlanner.manualScaleDown(autoscaling, activeRooms(name), amount);
                List<String> victims = c.planner.removalOrder(candidates, current.version(), count);
                if (victims.isEmpty()) {
                    scope.close();
                    removed.complete(0);
                    return;
                }
                lock.get().ensureHeld();
                c.actions.scaleDown(name, victims, FleetPlan.ScaleReason.MANUAL);
                c.actions.waitUntilGone(name, victims, c.tasks.clock().instant().plus(c.replaceTimeout))
                        .whenComplete((done, e) -> {
                            scope.close();
                            removed.complete(victims.size());
                        });
            } catch (RuntimeException e) {
                scope.close();
                removed.completeExceptionally(OperationContext.translate(e));
            }
        });
        return removed;
    }

    /**
     * Scales toward {@code replicas} rooms, clamped to [min, max]: up without a lock (and at most
     * {@code maxScaleUpAmount} at once), down under DOWNSCALE; nothing when equal.
     *
     * @param name     the scheduler
     * @param replicas rooms asked for, at least 0
     * @return a future of the rooms added (positive) or removed (negative)
     */
    public CompletableFuture<Integer> scaleTo(String name, int replicas) {
        if (replicas < 0) {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, Problem.of("replicas", replicas, "must not be negative"));
        }
        c.limits.roomsProblem("replicas", replicas).ifPresent(p -> {
            throw new SchedulerOperationException(ErrorCode.INVALID_CONFIG, p);
        });
        SchedulerRecord current = c.existing(name);
        Autoscaling autoscaling = autoscaling(current);
        int target = FleetPlanner.manualReplicas(autoscaling, replicas);
        int active = activeRooms(name);
        if (target > active) {
            // Not bounded by the scale step of one request: RoomActions creates in steps of at most that.
            try {
                int count = c.planner.manualScaleUp(autoscaling, active, target - active);
                if (count > 0) {
                    c.actions.scaleUp(name, current.version(), count, FleetPlan.ScaleReason.MANUAL);
                }
                return CompletableFuture.completedFuture(count);
            } catch (RuntimeException e) {
                throw OperationContext.translate(e);
            }
        }
        if (target < active) {
            return removeRooms(name, active - target).thenApply(n -> -n);
        }
        return CompletableFuture.completedFuture(0);
    }

    /** The rooms that count, as the watcher counts them: creating + ready + allocated + occupied when statuses are kept. */
    private int activeRooms(String name) {
        return c.actions.statuses().map(store -> store.counts(name).active())
                .orElseGet(() -> FleetPlanner.liveRooms(c.driver().list(name)).size());
    }

    private Autoscaling autoscaling(SchedulerRecord record) {
        try {
            return c.parser.apply(record.config()).autoscaling();
        } catch (RuntimeException e) {
            throw OperationContext.translate(e);
        }
    }
}
