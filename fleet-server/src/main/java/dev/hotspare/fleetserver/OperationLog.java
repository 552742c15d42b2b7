package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.SchedulerOperations.UpdateHandle;
import dev.hotspare.fleet.spi.Release.OperationStatus;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The config changes this instance started (updates, image and min changes, rollbacks) and how they went, so a
 * client that got its answer when the new version was saved can follow the rolling replace that goes on. Kept in
 * memory, the newest {@value #KEPT_PER_SCHEDULER} per scheduler: an operation is what this instance runs, and
 * its outcome is also recorded durably as the release's status.
 */
final class OperationLog {

    static final int KEPT_PER_SCHEDULER = 50;

    private final Clock clock;
    private final Map<String, Deque<Operation>> bySchedulers = new HashMap<>();

    OperationLog(Clock clock) {
        this.clock = clock;
    }

    /** One operation: what it changes and, once known, how it ended. */
    static final class Operation {
        final String id;
        final String scheduler;
        final String kind;
        final UpdateHandle handle;
        final Instant startedAt;
        final String requestedBy;
        final AtomicReference<Instant> finishedAt = new AtomicReference<>();

        Operation(String id, String scheduler, String kind, UpdateHandle handle, Instant startedAt, String requestedBy) {
            this.id = id;
            this.scheduler = scheduler;
            this.kind = kind;
            this.handle = handle;
            this.startedAt = startedAt;
            this.requestedBy = requestedBy;
        }

        /** The outcome, or IN_PROGRESS while the replace runs. */
        OperationStatus status() {
            return handle.outcome().isDone() && !handle.outcome().isCompletedExceptionally()
                    ? handle.outcome().join() : handle.outcome().isDone() ? OperationStatus.ERROR : OperationStatus.IN_PROGRESS;
        }

        Map<String, Object> toJson() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("id", id);
            out.put("scheduler", scheduler);
            out.put("kind", kind);
            out.put("version", handle.version().toString());
            out.put("status", status().name().toLowerCase(java.util.Locale.ROOT));
            out.put("startedAt", startedAt.getEpochSecond());
            Optional.ofNullable(finishedAt.get()).ifPresent(at -> out.put("finishedAt", at.getEpochSecond()));
            out.put("requestedBy", requestedBy);
            return out;
        }
    }

    synchronized Operation start(String scheduler, String kind, UpdateHandle handle, String requestedBy) {
        Operation operation = new Operation(UUID.randomUUID().toString(), scheduler, kind, handle, clock.instant(), requestedBy);
        Deque<Operation> kept = bySchedulers.computeIfAbsent(scheduler, s -> new ArrayDeque<>());
        kept.addFirst(operation);
        while (kept.size() > KEPT_PER_SCHEDULER) {
            kept.removeLast();
        }
        handle.outcome().whenComplete((status, error) -> operation.finishedAt.set(clock.instant()));
        return operation;
    }

    /** The scheduler's operations on this instance, newest first. */
    synchronized List<Operation> list(String scheduler) {
        return new ArrayList<>(bySchedulers.getOrDefault(scheduler, new ArrayDeque<>()));
    }

    synchronized Optional<Operation> find(String scheduler, String id) {
        return bySchedulers.getOrDefault(scheduler, new ArrayDeque<>()).stream().filter(o -> o.id.equals(id)).findFirst();
    }

    /** Forgets a deleted scheduler's operations. */
    synchronized void forget(String scheduler) {
        bySchedulers.remove(scheduler);
    }
}
