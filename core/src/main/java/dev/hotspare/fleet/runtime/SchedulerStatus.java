package dev.hotspare.fleet.runtime;

import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.pool.MemberPhase;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * A scheduler's status (Maestro's status route).
 *
 * @param name               scheduler name
 * @param game               the config's {@code game}, if set
 * @param version            current version
 * @param state              scheduler state
 * @param stateLastChangedAt when the state last changed
 * @param lastScaleAt        last successful scale
 * @param rooms              rooms per room status (Maestro's roomsAtCreating / Ready / Occupied / Terminating,
 *                           and allocated) with the running matches and allocated slots; zero when the operations
 *                           have no room status store
 * @param roomsByPhase       rooms per observed member phase (every phase present, zero when none)
 * @param rolledBackTo       when the current version was recorded by a rollback, the version it restored
 */
public record SchedulerStatus(String name, Optional<String> game, SchedulerVersion version, String state,
                              Instant stateLastChangedAt, Optional<Instant> lastScaleAt, RoomStatusCounts rooms,
                              Map<MemberPhase, Integer> roomsByPhase, Optional<SchedulerVersion> rolledBackTo) {

    /**
     * Copies the phases.
     *
     * @param name scheduler name
     * @param game the config's {@code game}, if set
     * @param version current version
     * @param state scheduler state
     * @param stateLastChangedAt when the state last changed
     * @param lastScaleAt last successful scale
     * @param rooms rooms per room status (Maestro's roomsAtCreating / Ready / Occupied / Terminating, and allocated)
     *         with the running matches and allocated slots; zero when the operations have no room status store
     * @param roomsByPhase rooms per observed member phase (every phase present, zero when none)
     * @param rolledBackTo when the current version was recorded by a rollback, the version it restored
     */
    public SchedulerStatus {
        roomsByPhase = Map.copyOf(roomsByPhase);
        rolledBackTo = rolledBackTo == null ? Optional.empty() : rolledBackTo;
    }
}
