package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.OpStatus;
import dev.hotspare.rollout.RolloutEvent;
import dev.hotspare.rollout.TargetRef;

import java.util.Objects;

/**
 * An agent's report for an op.
 *
 * @param rollout the rollout's name
 * @param target  the agent's address (as in the op)
 * @param opId    the op's id
 * @param attempt the op's attempt number
 * @param status  how it ended
 * @param message explanation, may be empty
 */
public record OpReport(String rollout, TargetRef target, String opId, int attempt, OpStatus status, String message) {
    /**
     * Validates and normalises the components.
     *
     * @param rollout the rollout's name
     * @param target  the agent's address (as in the op)
     * @param opId    the op's id
     * @param attempt the op's attempt number
     * @param status  how it ended
     * @param message explanation, may be empty
     */
    public OpReport {
        Objects.requireNonNull(rollout, "rollout");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(opId, "opId");
        Objects.requireNonNull(status, "status");
        message = message == null ? "" : message;
    }

    /**
     * The report of {@code op} with {@code status}.
     *
     * @param status  how it ended
     * @param message the agent's explanation
     */
    public static OpReport of(AgentOp op, OpStatus status, String message) {
        return new OpReport(op.rollout(), op.target(), op.opId(), op.attempt(), status, message);
    }

    /**
     * This report as a machine event.
     */
    public RolloutEvent.AgentReported toEvent() {
        return new RolloutEvent.AgentReported(target, opId, attempt, status, message);
    }
}
