package dev.hotspare.rollout.runtime;

import dev.hotspare.rollout.RolloutState.OpStatus;
import dev.hotspare.rollout.TargetRef;
import dev.hotspare.rollout.spi.RolloutAgentChannel;
import dev.hotspare.rollout.spi.RolloutAgentChannel.AgentOp;
import dev.hotspare.rollout.spi.RolloutAgentChannel.OpReport;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent side of a rollout, for agent authors: watches the ops addressed to one target, runs each op id
 * at most once through an {@link OpHandler}, and reports. It remembers completed op ids in a
 * {@link CompletedOps} journal, so an op published again (a controller rebuilt after a crash re-issues its
 * in-flight ops) is answered with the recorded result instead of being executed twice; a re-publish while
 * the op is still running is ignored.
 *
 * <p>Give it a durable journal if the agent itself may restart mid-rollout; the in-memory one covers
 * controller crashes.
 */
public final class RolloutAgent implements AutoCloseable {

    /** Does the actual work of an op. */
    @FunctionalInterface
    public interface OpHandler {
        /**
         * Starts {@code op}; the stage completes with its result (an exceptional completion counts as FAILED).
         *
         * @return its outcome, when done
         */
        CompletionStage<Result> execute(AgentOp op);

        /**
         * Best-effort cancel of a running op; its result is still recorded.
         */
        default void cancel(AgentOp op) {
        }
    }

    /**
     * An op's outcome.
     *
     * @param status  succeeded or failed
     * @param message explanation
     */
    public record Result(OpStatus status, String message) {
        /**
         * Validates and normalises the components.
         *
         * @param status  succeeded or failed
         * @param message explanation
         */
        public Result {
            Objects.requireNonNull(status, "status");
            message = message == null ? "" : message;
        }

        /**
         * A success.
         *
         * @param message explanation
         * @return the result
         */
        public static Result succeeded(String message) {
            return new Result(OpStatus.SUCCEEDED, message);
        }

        /**
         * A failure.
         *
         * @param message why
         * @return the result
         */
        public static Result failed(String message) {
            return new Result(OpStatus.FAILED, message);
        }
    }

    /** Where an agent remembers finished ops. Implementations must be thread-safe. */
    public interface CompletedOps {
        /**
         * The recorded result of an op.
         *
         * @param rollout the rollout's name
         * @param opId    the op's id
         * @return its result, if the op finished
         */
        Optional<Result> find(String rollout, String opId);

        /**
         * Records the result of an op.
         *
         * @param rollout the rollout's name
         * @param opId    the op's id
         * @param result  how it ended
         */
        void record(String rollout, String opId, Result result);

        /**
         * A journal kept in memory (lost if the agent process restarts).
         *
         * @return an empty journal
         */
        static CompletedOps inMemory() {
            Map<String, Result> results = new ConcurrentHashMap<>();
            return new CompletedOps() {
                @Override
                public Optional<Result> find(String rollout, String opId) {
                    return Optional.ofNullable(results.get(rollout + "\u0000" + opId));
                }

                @Override
                public void record(String rollout, String opId, Result result) {
                    results.put(rollout + "\u0000" + opId, result);
                }
            };
        }
    }

    private final RolloutAgentChannel channel;
    private final TargetRef target;
    private final OpHandler handler;
    private final CompletedOps journal;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final AtomicLong executions = new AtomicLong();
    private final AtomicLong replays = new AtomicLong();
    private volatile boolean closed;
    private final RolloutAgentChannel.Subscription subscription;

    private RolloutAgent(RolloutAgentChannel channel, TargetRef target, OpHandler handler, CompletedOps journal) {
        this.channel = channel;
        this.target = target;
        this.handler = handler;
        this.journal = journal;
        this.subscription = channel.watch(target, new RolloutAgentChannel.AgentListener() {
            @Override
            public void onOp(AgentOp op) {
                handle(op);
            }

            @Override
            public void onCancel(AgentOp op) {
                if (running.contains(key(op))) {
                    handler.cancel(op);
                }
            }
        });
    }

    /**
     * Starts an agent for {@code target}; it first takes the ops already pending, then watches.
     *
     * @param channel where ops come from and reports go
     * @param target  the node, device or services agent this agent serves
     * @param handler does the work
     * @param journal remembers finished ops (make it durable to survive agent restarts)
     * @return the running agent; close it to stop
     */
    public static RolloutAgent start(RolloutAgentChannel channel, TargetRef target, OpHandler handler, CompletedOps journal) {
        return new RolloutAgent(Objects.requireNonNull(channel, "channel"), Objects.requireNonNull(target, "target"),
                Objects.requireNonNull(handler, "handler"), Objects.requireNonNull(journal, "journal"));
    }

    private void handle(AgentOp op) {
        if (closed) {
            return;
        }
        Optional<Result> recorded = journal.find(op.rollout(), op.opId());
        if (recorded.isPresent()) {
            replays.incrementAndGet();
            channel.report(OpReport.of(op, recorded.get().status(), recorded.get().message()));
            return;
        }
        if (!running.add(key(op))) {
            return;
        }
        executions.incrementAndGet();
        CompletionStage<Result> stage;
        try {
            stage = handler.execute(op);
        } catch (RuntimeException e) {
            stage = java.util.concurrent.CompletableFuture.failedFuture(e);
        }
        stage.whenComplete((result, error) -> {
            Result outcome = error != null ? Result.failed("agent error: " + error.getMessage())
                    : result == null ? Result.failed("agent returned no result") : result;
            journal.record(op.rollout(), op.opId(), outcome);
            running.remove(key(op));
            if (!closed) {
                channel.report(OpReport.of(op, outcome.status(), outcome.message()));
            }
        });
    }

    private static String key(AgentOp op) {
        return op.rollout() + "\u0000" + op.opId();
    }

    /**
     * The target this agent serves.
     *
     * @return its address
     */
    public TargetRef target() {
        return target;
    }

    /**
     * Ops actually executed (each op id at most once).
     *
     * @return the count
     */
    public long executions() {
        return executions.get();
    }

    /**
     * Re-published ops answered from the journal.
     *
     * @return the count
     */
    public long replayedReports() {
        return replays.get();
    }

    /** Stops watching and reporting; running ops still record their result in the journal. */
    @Override
    public void close() {
        closed = true;
        subscription.close();
    }
}
