package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Computes the dry-run {@link RolloutPlan} of a spec against an inventory, and whether it may be created. Pure. */
public final class RolloutPlanner {

    private RolloutPlanner() {
    }

    /**
     * The preview of running {@code spec} over {@code inventory}.
     *
     * @param spec      what to do
     * @param inventory over which targets
     * @return every stage in order, the skipped targets, the worst case in parts and the window fit
     */
    public static RolloutPlan plan(RolloutSpec spec, Inventory inventory) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(inventory, "inventory");
        List<RolloutPlan.Skipped> skipped = new ArrayList<>();
        List<String> unhealthy = new ArrayList<>();
        List<Target> nodes = new ArrayList<>();
        List<Target> devices = new ArrayList<>();
        for (TargetKind kind : List.of(TargetKind.NODE, TargetKind.DEVICE)) {
            for (Target t : inventory.ofKind(kind)) {
                Optional<String> why = Grouping.skipReason(spec, t);
                if (why.isPresent()) {
                    skipped.add(new RolloutPlan.Skipped(t.ref(), why.get()));
                    if (kind == TargetKind.DEVICE && why.get().equals(Grouping.DEVICE_NOT_HEALTHY)) {
                        unhealthy.add(t.name());
                    }
                } else if (kind == TargetKind.NODE) {
                    nodes.add(t);
                } else {
                    devices.add(t);
                }
            }
        }
        OpTimeouts timeouts = spec.timeouts();
        List<List<Target>> groups = new ArrayList<>();
        for (int g = 0; g < Grouping.groupCount(spec); g++) {
            List<Target> members = new ArrayList<>();
            for (Target d : devices) {
                if (Grouping.groupOf(spec, d.labels()).orElse(-1) == g) {
                    members.add(d);
                }
            }
            groups.add(members);
        }

        List<RolloutPlan.Stage> stages = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Duration prechecks = Duration.ZERO;
        int precheckRounds = 0;
        List<String> unfitNodes = Grouping.unfitNodes(spec, inventory);
        if (spec.prechecks()) {
            unfitNodes.forEach(why -> warnings.add("the precheck stage will fail before any precheck op: " + why));
            if (!nodes.isEmpty()) {
                RolloutPlan.Stage s = sequential(RolloutPlan.StageKind.PRECHECK_NODES, "precheck nodes", refs(nodes), timeouts.node());
                stages.add(s);
                prechecks = prechecks.plus(s.estimatedDuration());
                precheckRounds += s.rounds();
            }
            for (int g = 0; g < groups.size(); g++) {
                if (!groups.get(g).isEmpty()) {
                    RolloutPlan.Stage s = deviceStage(spec, RolloutPlan.StageKind.PRECHECK_DEVICES,
                            "precheck group " + (g + 1) + ": " + Grouping.groupName(spec, g), groups.get(g));
                    stages.add(s);
                    prechecks = prechecks.plus(s.estimatedDuration());
                    precheckRounds += s.rounds();
                }
            }
        } else {
            unfitNodes.forEach(why -> warnings.add(why + "; prechecks are off, so nothing stops the rollout on it"));
        }
        if (!unhealthy.isEmpty()) {
            warnings.add("device(s) not healthy, skipped: " + String.join(", ", unhealthy)
                    + "; the rollout will end FAILED unless they recover before their group's turn");
        }
        spec.window().ifPresent(w -> stages.add(new RolloutPlan.Stage(RolloutPlan.StageKind.WAIT_FOR_WINDOW,
                "wait for window start " + w.start(), List.of(), 0, List.of(), 0, Duration.ZERO, Duration.ZERO)));
        Duration nodeTime = Duration.ZERO;
        Duration servicesTime = Duration.ZERO;
        int rounds = 0;
        if (spec.upgradeControlPlane()) {
            if (!nodes.isEmpty()) {
                RolloutPlan.Stage s = sequential(RolloutPlan.StageKind.NODES, "nodes", refs(nodes), timeouts.node());
                stages.add(s);
                nodeTime = s.estimatedDuration();
                rounds += s.rounds();
            }
            stages.add(new RolloutPlan.Stage(RolloutPlan.StageKind.SERVICES, "services (on the leader)",
                    List.of(TargetRef.services()), 1, List.of(), 1, timeouts.services(), timeouts.services()));
            servicesTime = timeouts.services();
            rounds += 1;
        }
        Duration deviceTime = Duration.ZERO;
        int deviceRounds = 0;
        for (int g = 0; g < groups.size(); g++) {
            if (groups.get(g).isEmpty()) {
                continue;
            }
            RolloutPlan.Stage s = deviceStage(spec, RolloutPlan.StageKind.DEVICE_GROUP,
                    "group " + (g + 1) + ": " + Grouping.groupName(spec, g), groups.get(g));
            stages.add(s);
            deviceTime = deviceTime.plus(s.estimatedDuration());
            deviceRounds += s.rounds();
        }
        rounds += deviceRounds;
        Duration window = nodeTime.plus(servicesTime).plus(deviceTime);
        RolloutPlan.Estimate estimate = new RolloutPlan.Estimate(prechecks, nodeTime, servicesTime, deviceRounds, deviceTime, window);

        Optional<Instant> windowStart = spec.window().map(MaintenanceWindow::start);
        Optional<Duration> windowLength = spec.window().flatMap(w -> w.end().map(end -> Duration.between(w.start(), end)));
        RolloutPlan.WindowFit fit;
        if (spec.window().isEmpty()) {
            fit = RolloutPlan.WindowFit.NO_WINDOW;
        } else if (windowLength.isEmpty()) {
            fit = RolloutPlan.WindowFit.OPEN_ENDED;
        } else {
            fit = window.compareTo(windowLength.get()) <= 0 ? RolloutPlan.WindowFit.FITS : RolloutPlan.WindowFit.TOO_SHORT;
        }
        List<Problem> refusals = new ArrayList<>();
        if (fit == RolloutPlan.WindowFit.TOO_SHORT) {
            String parts = "nodes " + nodeTime + " + services " + servicesTime + " + devices " + deviceTime + " in "
                    + deviceRounds + " round(s)";
            if (spec.allowPartialWindow()) {
                warnings.add("the worst case " + window + " (" + parts + ") does not fit the window " + windowLength.get()
                        + "; allowPartialWindow is set, so the rest waits for another window (DEADLINE_EXCEEDED lists it)");
            } else {
                refusals.add(Problem.of("window", windowLength.get(), "the worst case " + window + " (" + parts
                        + ") does not fit the window; widen the window, raise maxParallel, or set allowPartialWindow: true"
                        + " to create the rollout anyway"));
            }
        }
        return new RolloutPlan(spec.name(), spec.targetVersion(), stages, skipped, estimate, rounds + precheckRounds,
                windowStart, windowLength, fit, warnings, refusals);
    }

    /**
     * Refuses a rollout that is known not to fit its window (the plan's {@link RolloutPlan#refusals()}), unless
     * the spec says {@code allowPartialWindow: true}. {@code RolloutController.create} calls it.
     *
     * @param spec      what to do
     * @param inventory over which targets
     * @return the plan, when the rollout may be created
     * @throws ValidationException naming {@code window} with the worst case and its parts otherwise
     */
    public static RolloutPlan requireCreatable(RolloutSpec spec, Inventory inventory) {
        RolloutPlan plan = plan(spec, inventory);
        if (!plan.refusals().isEmpty()) {
            throw new ValidationException(plan.refusals());
        }
        return plan;
    }

    /** A device stage (prechecks or upgrades of one group): the group's parallelism, timeout and batches. */
    private static RolloutPlan.Stage deviceStage(RolloutSpec spec, RolloutPlan.StageKind kind, String name, List<Target> members) {
        int parallel = spec.maxParallel().forGroup(members.size());
        Duration timeout = spec.deviceTimeout(members.size());
        List<List<String>> batches = new ArrayList<>();
        int groupRounds;
        if (spec.strategy() == DeviceStrategy.EXPONENTIAL) {
            int next = 0;
            for (int size : Grouping.exponentialBatchSizes(members.size(), parallel)) {
                batches.add(members.subList(next, next + size).stream().map(Target::name).toList());
                next += size;
            }
            groupRounds = batches.size();
        } else {
            groupRounds = ceilDiv(members.size(), parallel);
        }
        return new RolloutPlan.Stage(kind, name, refs(members), parallel, batches, groupRounds, timeout,
                timeout.multipliedBy(groupRounds));
    }

    private static RolloutPlan.Stage sequential(RolloutPlan.StageKind kind, String name, List<TargetRef> targets, Duration timeout) {
        return new RolloutPlan.Stage(kind, name, targets, 1, List.of(), targets.size(), timeout, timeout.multipliedBy(targets.size()));
    }

    private static List<TargetRef> refs(List<Target> targets) {
        return targets.stream().map(Target::ref).toList();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

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
}
