package dev.hotspare.rollout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Computes the dry-run {@link RolloutPlan} of a spec against an inventory. Pure. */
public final class RolloutPlanner {

    private RolloutPlanner() {
    }

    /** The preview of running {@code spec} over {@code inventory}. */
    public static RolloutPlan plan(RolloutSpec spec, Inventory inventory) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(inventory, "inventory");
        List<RolloutPlan.Skipped> skipped = new ArrayList<>();
        List<Target> nodes = new ArrayList<>();
        List<Target> devices = new ArrayList<>();
        for (TargetKind kind : List.of(TargetKind.NODE, TargetKind.DEVICE)) {
            for (Target t : inventory.ofKind(kind)) {
                Optional<String> why = Grouping.skipReason(spec, t);
                if (why.isPresent()) {
                    skipped.add(new RolloutPlan.Skipped(t.ref(), why.get()));
                } else if (kind == TargetKind.NODE) {
                    nodes.add(t);
                } else {
                    devices.add(t);
                }
            }
        }
        OpTimeouts timeouts = spec.timeouts();
        int parallel = spec.maxParallel();
        List<RolloutPlan.Stage> stages = new ArrayList<>();
        Duration precheck = Duration.ZERO;
        if (spec.prechecks()) {
            if (!nodes.isEmpty()) {
                RolloutPlan.Stage s = sequential(RolloutPlan.StageKind.PRECHECK_NODES, "precheck nodes", refs(nodes), timeouts.node());
                stages.add(s);
                precheck = precheck.plus(s.estimatedDuration());
            }
            if (!devices.isEmpty()) {
                int rounds = ceilDiv(devices.size(), parallel);
                RolloutPlan.Stage s = new RolloutPlan.Stage(RolloutPlan.StageKind.PRECHECK_DEVICES, "precheck devices",
                        refs(devices), parallel, List.of(), rounds, timeouts.device().multipliedBy(rounds));
                stages.add(s);
                precheck = precheck.plus(s.estimatedDuration());
            }
        }
        spec.window().ifPresent(w -> stages.add(new RolloutPlan.Stage(RolloutPlan.StageKind.WAIT_FOR_WINDOW,
                "wait for window start " + w.start(), List.of(), 0, List.of(), 0, Duration.ZERO)));
        Duration upgrade = Duration.ZERO;
        int rounds = 0;
        if (spec.upgradeControlPlane()) {
            if (!nodes.isEmpty()) {
                RolloutPlan.Stage s = sequential(RolloutPlan.StageKind.NODES, "nodes", refs(nodes), timeouts.node());
                stages.add(s);
                upgrade = upgrade.plus(s.estimatedDuration());
                rounds += s.rounds();
            }
            stages.add(new RolloutPlan.Stage(RolloutPlan.StageKind.SERVICES, "services (on the leader)",
                    List.of(TargetRef.services()), 1, List.of(), 1, timeouts.services()));
            upgrade = upgrade.plus(timeouts.services());
            rounds += 1;
        }
        for (int g = 0; g < Grouping.groupCount(spec); g++) {
            List<Target> members = new ArrayList<>();
            for (Target d : devices) {
                if (Grouping.groupOf(spec, d.labels()).orElse(-1) == g) {
                    members.add(d);
                }
            }
            if (members.isEmpty()) {
                continue;
            }
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
            RolloutPlan.Stage s = new RolloutPlan.Stage(RolloutPlan.StageKind.DEVICE_GROUP,
                    "group " + (g + 1) + ": " + Grouping.groupName(spec, g), refs(members), parallel, batches,
                    groupRounds, timeouts.device().multipliedBy(groupRounds));
            stages.add(s);
            upgrade = upgrade.plus(s.estimatedDuration());
            rounds += groupRounds;
        }
        int precheckRounds = stages.stream()
                .filter(s -> s.kind() == RolloutPlan.StageKind.PRECHECK_NODES || s.kind() == RolloutPlan.StageKind.PRECHECK_DEVICES)
                .mapToInt(RolloutPlan.Stage::rounds).sum();
        Optional<Instant> windowStart = spec.window().map(MaintenanceWindow::start);
        Optional<Duration> windowLength = spec.window().flatMap(w -> w.end().map(end -> Duration.between(w.start(), end)));
        RolloutPlan.WindowFit fit;
        if (spec.window().isEmpty()) {
            fit = RolloutPlan.WindowFit.NO_WINDOW;
        } else if (windowLength.isEmpty()) {
            fit = RolloutPlan.WindowFit.OPEN_ENDED;
        } else {
            fit = upgrade.compareTo(windowLength.get()) <= 0 ? RolloutPlan.WindowFit.FITS : RolloutPlan.WindowFit.TOO_SHORT;
        }
        return new RolloutPlan(spec.name(), spec.targetVersion(), stages, skipped, precheck, upgrade,
                rounds + precheckRounds, windowStart, windowLength, fit);
    }

    private static RolloutPlan.Stage sequential(RolloutPlan.StageKind kind, String name, List<TargetRef> targets, Duration timeout) {
        return new RolloutPlan.Stage(kind, name, targets, 1, List.of(), targets.size(), timeout.multipliedBy(targets.size()));
    }

    private static List<TargetRef> refs(List<Target> targets) {
        return targets.stream().map(Target::ref).toList();
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
