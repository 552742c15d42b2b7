package dev.hotspare.fleet.autoscale;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.hotspare.fleet.SchedulerState;

import java.util.List;
import java.util.Optional;

/**
 * What the autoscaler decided for one scheduler at one tick.
 *
 * @param delta          rooms to add (positive) or remove (negative); 0 exactly when {@code reason} is NONE
 * @param reason         why
 * @param trigger        the trigger that fired (or was held back by cooldown), if any
 * @param newState       the scheduler state once this decision is applied: {@code in-sync} after a scale (as in
 *                       Maestro); {@code subdimensioned} / {@code overdimensioned} when a rule asks for a scale that
 *                       is held back (cooldown, no READY room to remove)
 * @param heldByCooldown whether a trigger fired but its direction was still cooling down
 * @param roomsToRemove  for a scale-down, the READY rooms to remove in order (empty when the snapshot named none)
 * @param explanation    one line for humans and logs
 */
@JsonInclude(JsonInclude.Include.NON_ABSENT)
public record ScaleDecision(int delta, Reason reason, Optional<TriggerRef> trigger, SchedulerState newState,
                            boolean heldByCooldown, List<String> roomsToRemove, String explanation) {

    /** Why the room count changes (or not). */
    public enum Reason {
        /** Fewer rooms than min: scale up to min. */
        BELOW_MIN,
        /** More rooms than max: remove ready rooms down to max. */
        ABOVE_MAX,
        /** A trigger fired on its window of points. */
        TRIGGER,
        /** Current utilization reached an up trigger's limit (or a panic scale). */
        LIMIT,
        /** A Maestro 10 policy ({@code autoscaling.policy}) named another number of rooms. */
        POLICY,
        /** Nothing to do (see the explanation: in sync, cooldown, metrics unavailable, scheduler busy). */
        NONE
    }

    /**
     * Which trigger.
     *
     * @param direction up or down
     * @param index     position in that direction's trigger list
     * @param type      its type
     */
    public record TriggerRef(Direction direction, int index, String type) {
        @Override
        public String toString() {
            return direction.wireName() + "[" + index + "] (" + type + ")";
        }
    }

    public ScaleDecision {
        trigger = trigger == null ? Optional.empty() : trigger;
        roomsToRemove = roomsToRemove == null ? List.of() : List.copyOf(roomsToRemove);
        if ((delta == 0) != (reason == Reason.NONE)) {
            throw new IllegalArgumentException("delta " + delta + " does not fit reason " + reason);
        }
    }

    /**
     * Nothing to do.
     *
     * @param explanation one line for humans and logs
     */
    public static ScaleDecision none(SchedulerState state, String explanation) {
        return new ScaleDecision(0, Reason.NONE, Optional.empty(), state, false, List.of(), explanation);
    }

    /**
     * Whether the decision changes the room count.
     */
    public boolean scales() {
        return delta != 0;
    }
}
