package dev.hotspare.fleet.plan;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hotspare.fleet.SchedulerState;
import dev.hotspare.fleet.autoscale.ScaleDecision;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one watcher tick does to one scheduler, decided by {@link FleetPlanner#plan} and applied by the fleet
 * runtime in this order: register and forget room statuses (no lock), start the rolling replace, remove dead
 * rooms (both under DOWNSCALE), record usage points, scale (under TERMINATION, plus DOWNSCALE for a scale-down),
 * record the state and the scale.
 *
 * @param register       rooms the driver lists with no status yet: registered {@code creating}
 * @param forget         statuses of rooms the driver does not list, once dead or terminating: removed (the runtime
 *                       checks the room once more, so a room created after the observation keeps its status)
 * @param outdated       rooms on another major than the scheduler's, oldest first
 * @param startReplace   whether to start a rolling replace of {@code outdated} now
 * @param removeDead     dead rooms to remove now
 * @param usagePoints    this tick's usage point per trigger type, to record
 * @param usageKeep      how many points to keep per trigger type
 * @param scaling        the change in the number of rooms, if any
 * @param newState       the scheduler state to record when it changes, once {@code scaling} (if any) is applied
 * @param heldState      the state to record instead when {@code scaling} could not be applied (the scale is held
 *                       back: {@code subdimensioned} for a scale-up, {@code overdimensioned} for a scale-down), when
 *                       it differs from the observed one
 * @param decision       the autoscaler's decision, when it was consulted (explains {@code scaling})
 * @param request        the manual request this plan's {@code scaling} answers (a scaling left empty: it changes no
 *                       room), which the runtime saves as being applied before it changes any room
 * @param panicDecided   whether this plan answers the pending panic input ({@code scaling} is the panic scale-up, or
 *                       empty when fresh counts no longer ask for one), which the runtime then clears
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record FleetPlan(List<Registration> register, List<String> forget, List<String> outdated, boolean startReplace,
                        List<String> removeDead, Map<String, BigDecimal> usagePoints, Map<String, Integer> usageKeep,
                        Optional<Scaling> scaling, Optional<SchedulerState> newState, Optional<SchedulerState> heldState,
                        Optional<ScaleDecision> decision, Optional<ScaleInputs.Request> request, boolean panicDecided) {

    /**
     * Copies the lists and maps and fills in absent parts.
     *
     * @param register rooms the driver lists with no status yet: registered {@code creating}
     * @param forget statuses of rooms the driver does not list, once dead or terminating: removed (the runtime checks
     *         the room once more, so a room created after the observation keeps its status)
     * @param outdated rooms on another major than the scheduler's, oldest first
     * @param startReplace whether to start a rolling replace of {@code outdated} now
     * @param removeDead dead rooms to remove now
     * @param usagePoints this tick's usage point per trigger type, to record
     * @param usageKeep how many points to keep per trigger type
     * @param scaling the change in the number of rooms, if any
     * @param newState the scheduler state to record when it changes, once {@code scaling} (if any) is applied
     * @param heldState the state to record instead when {@code scaling} could not be applied (the scale is held back:
     *         {@code subdimensioned} for a scale-up, {@code overdimensioned} for a scale-down), when it differs from
     *         the observed one
     * @param decision the autoscaler's decision, when it was consulted (explains {@code scaling})
     * @param request the manual request {@code scaling} answers
     * @param panicDecided whether this plan answers the pending panic input
     */
    public FleetPlan {
        register = List.copyOf(register);
        forget = List.copyOf(forget);
        outdated = List.copyOf(outdated);
        removeDead = List.copyOf(removeDead);
        usagePoints = Map.copyOf(usagePoints);
        usageKeep = Map.copyOf(usageKeep);
        scaling = Objects.requireNonNullElse(scaling, Optional.empty());
        newState = Objects.requireNonNullElse(newState, Optional.empty());
        heldState = Objects.requireNonNullElse(heldState, Optional.empty());
        decision = Objects.requireNonNullElse(decision, Optional.empty());
        request = Objects.requireNonNullElse(request, Optional.empty());
    }

    /** A plan that answers no scale input. */
    public FleetPlan(List<Registration> register, List<String> forget, List<String> outdated, boolean startReplace,
                     List<String> removeDead, Map<String, BigDecimal> usagePoints, Map<String, Integer> usageKeep,
                     Optional<Scaling> scaling, Optional<SchedulerState> newState, Optional<SchedulerState> heldState,
                     Optional<ScaleDecision> decision) {
        this(register, forget, outdated, startReplace, removeDead, usagePoints, usageKeep, scaling, newState, heldState,
                decision, Optional.empty(), false);
    }

    /** A room to register as {@code creating}, stamped with its creation time. */
    public record Registration(String room, Instant createdAt) {
    }

    /** Why the number of rooms changes. */
    public enum ScaleReason {
        /** A new scheduler's first rooms, up to min. */
        MIN_ROOMS,
        /** The autoscaler's decision (below min, above max, a trigger or a limit). */
        AUTOSCALE,
        /** Panic scale: a room just became occupied and occupancy passed an up trigger's limit. */
        PANIC,
        /** A user asked (scale up / down / to a number of replicas). */
        MANUAL
    }

    /** A change in the number of rooms. */
    public sealed interface Scaling {
        /**
         * Why.
         */
        ScaleReason reason();
    }

    /** Create {@code count} rooms on the scheduler's current version. */
    public record ScaleUp(int count, ScaleReason reason) implements Scaling {
        public ScaleUp {
            if (count < 1) {
                throw new IllegalArgumentException("count: bad value '" + count + "': a scale-up adds at least one room");
            }
        }
    }

    /** Remove {@code rooms}, in this order (the configured removal ranking's). */
    public record ScaleDown(List<String> rooms, ScaleReason reason) implements Scaling {
        public ScaleDown {
            rooms = List.copyOf(rooms);
            if (rooms.isEmpty()) {
                throw new IllegalArgumentException("rooms: bad value '[]': a scale-down removes at least one room");
            }
        }
    }

    /**
     * The state to record after the tick: {@link #newState()} when the scaling was applied (or there was none),
     * {@link #heldState()} when it could not be (another worker held DOWNSCALE, the driver failed).
     *
     * @param scalingApplied whether {@link #scaling()} was applied
     * @return the state to record, when it changes
     */
    public Optional<SchedulerState> stateAfter(boolean scalingApplied) {
        return scaling.isEmpty() || scalingApplied ? newState : heldState;
    }

    /**
     * Whether applying this plan changes nothing.
     */
    public boolean isEmpty() {
        return register.isEmpty() && forget.isEmpty() && !startReplace && removeDead.isEmpty() && usagePoints.isEmpty()
                && scaling.isEmpty() && newState.isEmpty() && request.isEmpty() && !panicDecided;
    }
}
