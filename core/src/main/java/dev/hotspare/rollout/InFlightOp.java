package dev.hotspare.rollout;

import java.time.Instant;

/**
 * An op issued and not yet reported, timed out or cancelled.
 *
 * @param opId     the op's id, see {@link RolloutMachine#opId}
 * @param target   the logical target ({@link TargetRef#services()} for the services op)
 * @param address  where the op was sent (for the services op, the leader's services agent)
 * @param kind     precheck or upgrade
 * @param attempt  attempt number, from 1
 * @param issuedAt when it was issued
 * @param deadline when it times out
 */
public record InFlightOp(String opId, TargetRef target, TargetRef address, OpKind kind, int attempt,
                         Instant issuedAt, Instant deadline) {
}
