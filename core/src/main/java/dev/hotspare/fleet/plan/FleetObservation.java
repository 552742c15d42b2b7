package dev.hotspare.fleet.plan;

import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.autoscale.UsageWindows;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.Member;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a watcher observed of one scheduler at one tick: the input of {@link FleetPlanner#plan}.
 *
 * @param scheduler        the scheduler's name
 * @param config           its current config, parsed
 * @param version          its current version
 * @param state            its state
 * @param lastScaleAt      its last successful scale
 * @param members          its rooms as the member driver lists them (including rooms being deleted)
 * @param statuses         the room status store's status per room
 * @param counts           the room status store's counts per status
 * @param deadRooms        rooms the store reports dead under {@link FleetPlanner#deadRoomRules}, in its order
 * @param recordedUsage    usage points recorded before this tick, per trigger type (read only when
 *                         {@code autoscaleLockHeld}; empty otherwise)
 * @param resourceUsage    cpu / mem readings, for the metrics the config's triggers use
 * @param autoscaleLockHeld whether this tick holds TERMINATION, the autoscaler's lock
 * @param downscaleLockHeld whether this tick holds DOWNSCALE, needed to replace or remove rooms
 * @param replaceRunning   whether this watcher's rolling replace of outdated rooms is still running
 * @param removalRunning   whether rooms this watcher removed (dead rooms, a scale-down) are still going away
 * @param now              the tick's time
 * @param inputs           the scheduler's persisted scale inputs: manual requests and the panic input
 */
public record FleetObservation(String scheduler, SchedulerConfig config, SchedulerVersion version, SchedulerState state,
                               Optional<Instant> lastScaleAt, List<Member> members, Map<String, RoomStatus> statuses,
                               RoomStatusCounts counts, List<String> deadRooms, UsageWindows recordedUsage,
                               Map<ResourceMetric, UsageReading> resourceUsage, boolean autoscaleLockHeld,
                               boolean downscaleLockHeld, boolean replaceRunning, boolean removalRunning, Instant now,
                               ScaleInputs inputs) {

    public FleetObservation {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(now, "now");
        lastScaleAt = Objects.requireNonNullElse(lastScaleAt, Optional.empty());
        members = List.copyOf(members);
        statuses = Map.copyOf(statuses);
        counts = Objects.requireNonNullElse(counts, RoomStatusCounts.ZERO);
        deadRooms = List.copyOf(deadRooms);
        recordedUsage = Objects.requireNonNullElse(recordedUsage, UsageWindows.EMPTY);
        resourceUsage = Map.copyOf(resourceUsage);
        inputs = Objects.requireNonNullElse(inputs, ScaleInputs.EMPTY);
    }

    /** An observation with no scale inputs (no manual request, no panic). */
    public FleetObservation(String scheduler, SchedulerConfig config, SchedulerVersion version, SchedulerState state,
                            Optional<Instant> lastScaleAt, List<Member> members, Map<String, RoomStatus> statuses,
                            RoomStatusCounts counts, List<String> deadRooms, UsageWindows recordedUsage,
                            Map<ResourceMetric, UsageReading> resourceUsage, boolean autoscaleLockHeld,
                            boolean downscaleLockHeld, boolean replaceRunning, boolean removalRunning, Instant now) {
        this(scheduler, config, version, state, lastScaleAt, members, statuses, counts, deadRooms, recordedUsage,
                resourceUsage, autoscaleLockHeld, downscaleLockHeld, replaceRunning, removalRunning, now, ScaleInputs.EMPTY);
    }
}
