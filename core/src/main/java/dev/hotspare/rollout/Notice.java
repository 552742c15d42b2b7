package dev.hotspare.rollout;

import java.util.Optional;

/**
 * Something worth telling people about a rollout, carried by {@link RolloutCommand.Emit}.
 *
 * @param kind    what happened
 * @param target  the target concerned, if any
 * @param message a human sentence
 */
public record Notice(Kind kind, Optional<TargetRef> target, String message) {

    /**
     * Normalises an absent target to empty.
     *
     * @param kind    what happened
     * @param target  the target concerned, if any
     * @param message a human sentence
     */
    public Notice {
        target = target == null ? Optional.empty() : target;
    }

    static Notice of(Kind kind, String message) {
        return new Notice(kind, Optional.empty(), message);
    }

    static Notice of(Kind kind, TargetRef target, String message) {
        return new Notice(kind, Optional.of(target), message);
    }

    /** Kinds of notice. */
    public enum Kind {
        /** Start was applied. */
        STARTED,
        /** A stage began. */
        STAGE_STARTED,
        /** Every device of a group (of prechecks or upgrades) finished. */
        GROUP_FINISHED,
        /** A precheck passed. */
        PRECHECK_PASSED,
        /** A target was upgraded. */
        TARGET_SUCCEEDED,
        /** A target failed for good: upgrade, precheck (left out of the upgrade) or node health. */
        TARGET_FAILED,
        /** A device attempt failed; the next one is scheduled. */
        RETRY_SCHEDULED,
        /** An op passed its deadline and was cancelled. */
        OP_TIMED_OUT,
        /** Suspend was asked for; in-flight work finishes first. */
        SUSPEND_REQUESTED,
        /** Suspended at a batch boundary. */
        SUSPENDED,
        /** Resumed. */
        RESUMED,
        /** The maintenance window closed: nothing new starts. */
        WINDOW_CLOSED,
        /** Device failures exceeded the budget: nothing new starts, the rollout ends FAILED. */
        HALTING,
        /** The leader changed. */
        LEADER_CHANGED,
        /** The inventory changed. */
        INVENTORY_CHANGED,
        /** A target left the inventory before it finished. */
        TARGET_REMOVED,
        /** A report matched no op in flight and was dropped. */
        REPORT_DROPPED,
        /** A spec change was accepted; it takes effect at the next batch boundary. */
        SPEC_CHANGE_ACCEPTED,
        /** An accepted spec change took effect. */
        SPEC_CHANGED,
        /** A spec change touched a field a running rollout cannot change; nothing changed. */
        SPEC_CHANGE_REFUSED,
        /** The runtime could not apply an event (for example the store refused the new state); nothing changed. */
        EVENT_REFUSED,
        /** The rollout ended. */
        FINISHED
    }
}
