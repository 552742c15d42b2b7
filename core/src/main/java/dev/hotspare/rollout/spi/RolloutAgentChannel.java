package dev.hotspare.rollout.spi;

import dev.hotspare.rollout.RolloutMachine.RolloutEvent;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.spi.StoreUnavailableException;
import java.util.Objects;

import java.util.List;
import java.util.function.Consumer;

/**
 * The pull-model link between a rollout controller and its agents. The controller publishes ops addressed
 * to a target; the agent of that target (and only it) pulls or watches them, does the work, and reports.
 * Agents must be idempotent: an op with an id they already finished may be published again (after a
 * controller crash) and is answered with the recorded result — see {@code dev.hotspare.rollout.runtime.RolloutAgent}.
 *
 * <p>Contract (checked by {@code RolloutAgentChannelContract} in hotspare-testkit):
 * <ul>
 *   <li>{@link #pending} lists the ops addressed to a target that were neither reported nor cancelled, in
 *       publish order, each op id once even if published again.</li>
 *   <li>{@link #watch} delivers the pending ops at once, then every publish (a re-publish too) and cancel for
 *       that target only, until closed.</li>
 *   <li>{@link #report} removes the op from pending and reaches every {@link #onReport} listener of its rollout,
 *       whether or not the op is still pending (staleness is the machine's business).</li>
 * </ul>
 * Listeners may be called on any thread and must not block. A remote backend that cannot answer throws
 * {@link StoreUnavailableException}.
 */
public interface RolloutAgentChannel {

    /**
     * Makes {@code op} visible to the agent at {@code op.target()}. Publishing the same op again re-notifies watchers.
     */
    void publish(AgentOp op);

    /**
     * Withdraws the op; watchers of its target are told. Unknown ids are ignored.
     *
     * @param rollout the rollout's name
     * @param target  where the op was addressed
     * @param opId    the op's id
     */
    void cancel(String rollout, TargetRef target, String opId);

    /**
     * Ops addressed to {@code target} and neither reported nor cancelled (pull).
     *
     * @param target the agent's address
     * @return the pending ops
     */
    List<AgentOp> pending(TargetRef target);

    /**
     * Watches ops addressed to {@code target}.
     *
     * @param target   the agent's address
     * @param listener told of published and withdrawn ops
     * @return the subscription
     */
    Subscription watch(TargetRef target, AgentListener listener);

    /**
     * Reports an op's outcome.
     *
     * @param report the outcome
     */
    void report(OpReport report);

    /**
     * Receives every report for {@code rollout}.
     *
     * @param rollout  the rollout's name
     * @param listener receives the reports
     * @return the subscription
     */
    Subscription onReport(String rollout, Consumer<OpReport> listener);

    /** What an agent is told. */
    interface AgentListener {
        /**
         * An op was published (possibly again).
         */
        void onOp(AgentOp op);

        /**
         * An op was withdrawn.
         */
        default void onCancel(AgentOp op) {
        }
    }

    /** Stops a watch or listener; closing twice does nothing. */
    @FunctionalInterface
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

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
}
