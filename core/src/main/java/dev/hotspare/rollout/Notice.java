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
        STARTED, STAGE_STARTED, GROUP_FINISHED, PRECHECK_PASSED, TARGET_SUCCEEDED, TARGET_FAILED, RETRY_SCHEDULED,
        OP_TIMED_OUT, SUSPEND_REQUESTED, SUSPENDED, RESUMED, WINDOW_CLOSED, HALTING, LEADER_CHANGED,
        INVENTORY_CHANGED, TARGET_REMOVED, REPORT_DROPPED, FINISHED
    }
}
