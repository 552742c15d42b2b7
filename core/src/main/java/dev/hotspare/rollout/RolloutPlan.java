package dev.hotspare.rollout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The dry-run preview of a rollout: what runs in which order, with which parallelism, and how long it may
 * take in the worst case (every op running until its timeout, no retries).
 *
 * @param rollout              the rollout name
 * @param targetVersion        the version targets move to
 * @param stages               stages in execution order; empty device groups are omitted
 * @param skipped              targets the rollout leaves alone, with the reason
 * @param precheckDuration     worst-case duration of the prechecks (before the window)
 * @param upgradeDuration      worst-case duration of the upgrade stages (inside the window)
 * @param estimatedRounds      sequential rounds of ops across all stages
 * @param windowStart          when upgrades may start, if a window is set
 * @param windowLength         length of the window, if it has an end
 * @param windowFit            whether {@code upgradeDuration} fits in the window
 */
public record RolloutPlan(String rollout, String targetVersion, List<Stage> stages, List<Skipped> skipped,
                          Duration precheckDuration, Duration upgradeDuration, int estimatedRounds,
                          Optional<Instant> windowStart, Optional<Duration> windowLength, WindowFit windowFit) {

    public RolloutPlan {
        stages = List.copyOf(stages);
        skipped = List.copyOf(skipped);
    }

    /** Whether the worst-case estimate fits in the maintenance window. */
    public enum WindowFit {
        /** No maintenance window: upgrades start right away and have no deadline. */
        NO_WINDOW,
        /** The window has no end. */
        OPEN_ENDED,
        /** The worst-case estimate fits. */
        FITS,
        /** The worst case is longer than the window: targets may be left not started (DEADLINE_EXCEEDED). */
        TOO_SHORT
    }

    /** Kinds of stage, in the order they run. */
    public enum StageKind { PRECHECK_NODES, PRECHECK_DEVICES, WAIT_FOR_WINDOW, NODES, SERVICES, DEVICE_GROUP }

    /**
     * One stage of the plan.
     *
     * @param kind              what the stage does
     * @param name              human name ({@code nodes}, {@code group 1: tier=canary}, …)
     * @param targets           targets in the order they start
     * @param parallelism       ops at once (1 for nodes and services; the pool size or batch cap for devices)
     * @param batches           EXPONENTIAL device batches (target names); empty for other stages
     * @param rounds            sequential rounds of ops
     * @param estimatedDuration worst case: rounds × the op timeout
     */
    public record Stage(StageKind kind, String name, List<TargetRef> targets, int parallelism,
                        List<List<String>> batches, int rounds, Duration estimatedDuration) {
        public Stage {
            targets = List.copyOf(targets);
            batches = batches.stream().map(List::copyOf).toList();
        }
    }

    /**
     * A target the rollout will not touch.
     *
     * @param target the target
     * @param reason why
     */
    public record Skipped(TargetRef target, String reason) {
    }
}
