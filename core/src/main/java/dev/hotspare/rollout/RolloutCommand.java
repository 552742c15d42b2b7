package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

import java.time.Instant;

/** What {@link RolloutMachine#decide} asks the runtime to do, after the new state is saved. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = RolloutCommand.IssueOp.class, name = "IssueOp"),
        @JsonSubTypes.Type(value = RolloutCommand.CancelOp.class, name = "CancelOp"),
        @JsonSubTypes.Type(value = RolloutCommand.ScheduleWake.class, name = "ScheduleWake"),
        @JsonSubTypes.Type(value = RolloutCommand.Emit.class, name = "Emit")})
public sealed interface RolloutCommand {

    /**
     * Send an op to the agent of {@code target}.
     *
     * @param target  the agent's address (for the services op: the leader's services agent)
     * @param opId    the op's id; agents treat a repeated id as the same op
     * @param kind    precheck or upgrade
     * @param attempt the attempt number, from 1
     * @param version the rollout's target version
     */
    record IssueOp(TargetRef target, String opId, OpKind kind, int attempt, String version) implements RolloutCommand {
    }

    /**
     * Withdraw an op (abort, timeout, leader change, target removed); its later report is dropped.
     *
     * @param target the agent's address
     * @param opId   the op's id
     */
    record CancelOp(TargetRef target, String opId) implements RolloutCommand {
    }

    /**
     * Deliver a {@link RolloutEvent.Tick} at {@code at} (or soon after).
     *
     * @param at when
     */
    record ScheduleWake(Instant at) implements RolloutCommand {
    }

    /**
     * Tell observers something happened.
     *
     * @param notice what
     */
    record Emit(Notice notice) implements RolloutCommand {
    }
}
