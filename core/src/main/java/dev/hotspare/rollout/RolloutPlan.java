package dev.hotspare.rollout;

import dev.hotspare.validation.Problem;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The dry-run preview of a rollout: what runs in which order, with which parallelism and op timeout, and how
 * long it may take in the worst case (every op running until its timeout, no retries).
 *
 * @param rollout         the rollout name
 * @param targetVersion   the version targets move to
 * @param stages          stages in execution order; empty device groups are omitted
 * @param skipped         targets the rollout leaves alone, with the reason
 * @param estimate        the worst case, in parts
 * @param estimatedRounds sequential rounds of ops across all stages, prechecks included
 * @param windowStart     when upgrades may start, if a window is set
 * @param windowLength    length of the window, if it has an end
 * @param windowFit       whether {@link Estimate#window()} fits in the window
 * @param warnings        what will go wrong or surprise, in words (an unhealthy node failing the precheck stage, …)
 * @param refusals        why creating this rollout is refused (a window known to be too short without
 *                        {@code allowPartialWindow}); empty when it can be created
 */
public record RolloutPlan(String rollout, String targetVersion, List<Stage> stages, List<Skipped> skipped,
                          Estimate estimate, int estimatedRounds, Optional<Instant> windowStart,
                          Optional<Duration> windowLength, WindowFit windowFit, List<String> warnings,
                          List<Problem> refusals) {

    /**
     * Copies the lists.
     *
     * @param rollout         the rollout name
     * @param targetVersion   the version targets move to
     * @param stages          stages in execution order; empty device groups are omitted
     * @param skipped         targets the rollout leaves alone, with the reason
     * @param estimate        the worst case, in parts
     * @param estimatedRounds sequential rounds of ops across all stages, prechecks included
     * @param windowStart     when upgrades may start, if a window is set
     * @param windowLength    length of the window, if it has an end
     * @param windowFit       whether {@link Estimate#window()} fits in the window
     * @param warnings        what will go wrong or surprise, in words (an unhealthy node failing the precheck stage, …)
     * @param refusals        why creating this rollout is refused (a window known to be too short without {@code allowPartialWindow}); empty when it can be created
     */
    public RolloutPlan {
        stages = List.copyOf(stages);
        skipped = List.copyOf(skipped);
        warnings = List.copyOf(warnings);
        refusals = List.copyOf(refusals);
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
    public enum StageKind {
        /** Precheck ops on the nodes, one at a time. */
        PRECHECK_NODES,
        /** Precheck ops on one device group, paced as its upgrade will be. */
        PRECHECK_DEVICES,
        /** Waiting for the window to open. */
        WAIT_FOR_WINDOW,
        /** Node upgrades, one at a time. */
        NODES,
        /** The services op on the leader. */
        SERVICES,
        /** The upgrades of one device group. */
        DEVICE_GROUP
    }

    /**
     * The worst case in parts, so a window that is TOO_SHORT shows why. Prechecks run before the window
     * opens when the rollout is started early enough, so they are shown but not part of {@link #window()}.
     *
     * @param prechecks    node prechecks plus device precheck rounds × their timeouts
     * @param nodes        nodes × the node timeout
     * @param services     the services op's timeout (it is real work: the leader rolls every service)
     * @param deviceRounds device upgrade rounds over every group (LINEAR: ⌈devices / parallelism⌉ per group;
     *                     EXPONENTIAL: the batches)
     * @param devices      the device rounds × their groups' device timeouts
     * @param window       what must fit in the window: nodes + services + devices
     */
    public record Estimate(Duration prechecks, Duration nodes, Duration services, int deviceRounds, Duration devices,
                           Duration window) {
    }

    /**
     * One stage of the plan.
     *
     * @param kind              what the stage does
     * @param name              human name ({@code nodes}, {@code group 1: tier=canary}, …)
     * @param targets           targets in the order they start
     * @param parallelism       ops at once (1 for nodes and services; the group's pool size or batch cap for devices,
     *                          a percentage already applied)
     * @param batches           EXPONENTIAL device batches (target names); empty for other stages
     * @param rounds            sequential rounds of ops
     * @param opTimeout         the timeout of each op in the stage (for devices: explicit, or scaled with parallelism)
     * @param estimatedDuration worst case: rounds × the op timeout
     */
    public record Stage(StageKind kind, String name, List<TargetRef> targets, int parallelism,
                        List<List<String>> batches, int rounds, Duration opTimeout, Duration estimatedDuration) {
        /**
         * Copies the lists.
         *
         * @param kind              what the stage does
         * @param name              human name ({@code nodes}, {@code group 1: tier=canary}, …)
         * @param targets           targets in the order they start
         * @param parallelism       ops at once (1 for nodes and services; the group's pool size or batch cap for devices, a percentage already applied)
         * @param batches           EXPONENTIAL device batches (target names); empty for other stages
         * @param rounds            sequential rounds of ops
         * @param opTimeout         the timeout of each op in the stage (for devices: explicit, or scaled with parallelism)
         * @param estimatedDuration worst case: rounds × the op timeout
         */
        public Stage {
            targets = List.copyOf(targets);
            batches = batches.stream().map(List::copyOf).toList();
        }
    }

    /**
     * A target the rollout will not touch.
     *
     * @param reason why
     */
    public record Skipped(TargetRef target, String reason) {
    }
}
