package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.OpKind;
import dev.hotspare.rollout.TargetRef;

import java.util.Objects;

/**
 * An op as an agent sees it on the {@link RolloutAgentChannel}.
 *
 * @param rollout the rollout's name
 * @param target  the agent it is addressed to
 * @param opId    its id; the same id sent twice is the same op
 * @param kind    precheck or upgrade
 * @param attempt attempt number, from 1
 * @param version the version to move to (or check for)
 */
public record AgentOp(String rollout, TargetRef target, String opId, OpKind kind, int attempt, String version) {
    /**
     * Validates and normalises the components.
     *
     * @param rollout the rollout's name
     * @param target  the agent it is addressed to
     * @param opId    its id; the same id sent twice is the same op
     * @param kind    precheck or upgrade
     * @param attempt attempt number, from 1
     * @param version the version to move to (or check for)
     */
    public AgentOp {
        Objects.requireNonNull(rollout, "rollout");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(opId, "opId");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(version, "version");
    }
}
