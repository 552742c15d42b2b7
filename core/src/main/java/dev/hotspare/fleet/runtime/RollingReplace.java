package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.MaxSurge;
import dev.hotspare.fleet.plan.FleetPlanner;
import dev.hotspare.fleet.spi.OperationStatus;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.ObservedPower;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.time.TaskScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;

/**
 * Replaces every room whose major version differs from the target, in chunks of maxSurge (a percentage of the
 * current rooms, or a number of rooms; at least one): for each room of a chunk, create one on the target version and delete the old
 * one; then wait until the chunk's new rooms are ready before the next chunk. Ends DEPLOYED, or TIMEDOUT /
 * CANCELED / ERROR (a new room failed or vanished, the driver threw, or the lease guarding it was lost).
 * Runs on the {@link TaskScheduler}, polling; never blocks a thread.
 */
final class RollingReplace {

    private static final Logger LOG = LoggerFactory.getLogger(RollingReplace.class);

    private final String scheduler;
    private final SchedulerVersion target;
    private final MaxSurge maxSurge;
    private final Instant deadline;
    private final Duration pollInterval;
    private final RoomActions actions;
    private final MemberDriver driver;
    private final TaskScheduler tasks;
    private final BooleanSupplier cancelled;
    private final BooleanSupplier leaseLost;
    private final CompletableFuture<OperationStatus> result = new CompletableFuture<>();

    private List<Member> outdated;
    private int chunkSize;
    private int next;
    private List<String> waitingFor = List.of();

    RollingReplace(String scheduler, SchedulerVersion target, MaxSurge maxSurge, Duration timeout, Duration pollInterval,
                   RoomActions actions, BooleanSupplier cancelled, BooleanSupplier leaseLost) {
        this.scheduler = scheduler;
        this.target = target;
        this.maxSurge = maxSurge;
        this.deadline = actions.tasks().clock().instant().plus(timeout);
        this.pollInterval = pollInterval;
        this.actions = actions;
        this.driver = actions.driver();
        this.tasks = actions.tasks();
        this.cancelled = cancelled;
        this.leaseLost = leaseLost;
    }

    CompletableFuture<OperationStatus> start() {
        try {
            List<Member> rooms = FleetPlanner.liveRooms(driver.list(scheduler));
            outdated = rooms.stream().filter(m -> FleetPlanner.isOutdated(m, target)).toList();
            chunkSize = maxSurge.chunkSize(rooms.size());
            startNextChunk();
        } catch (RuntimeException e) {
            finish(OperationStatus.ERROR, e);
        }
        return result;
    }

    private void startNextChunk() {
        if (stopped()) {
            return;
        }
        if (next >= outdated.size()) {
            finish(OperationStatus.DEPLOYED, null);
            return;
        }
        List<Member> chunk = outdated.subList(next, Math.min(next + chunkSize, outdated.size()));
        next += chunk.size();
        List<String> created = new ArrayList<>();
        for (Member old : chunk) {
            created.add(actions.replace(scheduler, target, old.id()));
        }
        waitingFor = created;
        tasks.schedule(pollInterval, this::poll);
    }

    private void poll() {
        try {
            if (stopped()) {
                return;
            }
            boolean allReady = true;
            for (String id : waitingFor) {
                Optional<Member> room = driver.find(scheduler, id);
                if (room.isEmpty() || room.get().phase() == MemberPhase.FAILED || room.get().phase() == MemberPhase.DELETING) {
                    finish(OperationStatus.ERROR, new IllegalStateException("new room " + id + " failed or disappeared"));
                    return;
                }
                allReady &= room.get().phase() == MemberPhase.READY && room.get().observedPower() == ObservedPower.RUNNING;
            }
            if (allReady) {
                startNextChunk();
            } else {
                tasks.schedule(pollInterval, this::poll);
            }
        } catch (RuntimeException e) {
            finish(OperationStatus.ERROR, e);
        }
    }

    /** Checks cancel, lease and deadline; finishes and returns true if the replace must stop. */
    private boolean stopped() {
        if (result.isDone()) {
            return true;
        }
        if (cancelled.getAsBoolean()) {
            finish(OperationStatus.CANCELED, null);
        } else if (leaseLost.getAsBoolean()) {
            finish(OperationStatus.ERROR, new IllegalStateException("lease lost during the rolling replace"));
        } else if (!tasks.clock().instant().isBefore(deadline)) {
            finish(OperationStatus.TIMEDOUT, null);
        }
        return result.isDone();
    }

    private void finish(OperationStatus status, Throwable cause) {
        if (cause != null) {
            LOG.warn("rolling replace of {} to {} ends {}", scheduler, target, status, cause);
        }
        result.complete(status);
    }
}
