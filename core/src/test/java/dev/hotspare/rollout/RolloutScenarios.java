package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutMachine.RolloutCommand;
import dev.hotspare.rollout.RolloutSpec.DeviceStrategy;
import dev.hotspare.rollout.RolloutSpec.MaintenanceWindow;
import dev.hotspare.rollout.RolloutSpec.MaxParallel;
import dev.hotspare.rollout.RolloutSpec.OpTimeouts;
import dev.hotspare.rollout.RolloutSpec.UnmatchedDevices;
import dev.hotspare.rollout.RolloutState.InFlightOp;
import dev.hotspare.rollout.RolloutState.OpKind;
import dev.hotspare.rollout.RolloutState.TargetRecord;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.Target.TargetKind;
import dev.hotspare.testkit.property.Gen;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Generators and invariant checks shared by the rollout properties. */
public final class RolloutScenarios {

    public static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final List<String> LABELS = List.of("a", "b", "c", "none");

    private RolloutScenarios() {
    }

    /** A spec and the inventory it runs over. */
    public record Scenario(RolloutSpec spec, Inventory inventory) {
    }

    /** Device group selectors, equality-based and set-based, over the labels of {@link #inventories()}. */
    private static final List<String> SELECTORS = List.of("tier=a", "tier in (b)", "tier=c", "tier in (b,c)",
            "tier notin (a,b)", "!tier", "tier");

    /** Specs of every shape; {@code withWindowEnd} allows windows that close (and lets them be too short). */
    public static Gen<RolloutSpec> specs(boolean withWindowEnd) {
        Gen<List<String>> order = Gen.of(SELECTORS).uniqueList(0, 3);
        Gen<MaxParallel> parallel = Gen.oneOf(Gen.integers(1, 4).map(MaxParallel::of),
                Gen.of(25, 50, 100).map(MaxParallel::percentOfGroup));
        Gen<RolloutSpec.Builder> base = Gen.combine(
                Gen.of(true, false), order, Gen.enums(UnmatchedDevices.class),
                Gen.enums(DeviceStrategy.class), parallel, Gen.of(true, false),
                Gen.integers(0, 3), Gen.integers(1, 3), (cp, ord, unmatched, strategy, maxParallel, prechecks, maxFailures, attempts) -> {
            RolloutSpec.Builder b = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(cp).unmatchedDevices(unmatched)
                    .strategy(strategy).maxParallel(maxParallel).prechecks(prechecks).maxFailures(maxFailures)
                    .retry(attempts, Duration.ofMinutes(2)).allowPartialWindow(true)
                    .timeouts(new OpTimeouts(Duration.ofMinutes(20), Duration.ofMinutes(20), Duration.ofMinutes(15)));
            ord.forEach(b::deviceGroup);
            return b;
        });
        Gen<Optional<MaintenanceWindow>> windows = Gen.integers(0, 3).flatMap(kind -> switch (kind) {
            case 0, 1 -> Gen.just(Optional.<MaintenanceWindow>empty());
            case 2 -> Gen.integers(0, 120).map(m -> Optional.of(MaintenanceWindow.from(T0.plus(Duration.ofMinutes(m)))));
            default -> withWindowEnd
                    ? Gen.combine(Gen.integers(0, 60), Gen.integers(1, 400), (s, len) -> Optional.of(MaintenanceWindow.between(T0.plus(Duration.ofMinutes(s)), T0.plus(Duration.ofMinutes(s + len)))))
                    : Gen.just(Optional.<MaintenanceWindow>empty());
        });
        return Gen.combine(base, windows, (b, w) -> {
            w.ifPresent(b::window);
            return b.build();
        });
    }

    /**
     * Inventories of up to 3 nodes and 10 devices, labelled from a small set; a few targets already current, a
     * few devices not admitted or not healthy (nodes are healthy: an unhealthy one ends a rollout with prechecks
     * before anything runs).
     */
    public static Gen<Inventory> inventories() {
        Gen<Integer> nodes = Gen.integers(0, 3);
        Gen<List<String>> devices = Gen.of(LABELS).list(0, 10);
        Gen<Integer> currentEvery = Gen.of(0, 0, 0, 4);
        Gen<Integer> unfitEvery = Gen.of(0, 0, 3, 5);
        return Gen.combine(nodes, devices, currentEvery, unfitEvery, (n, labels, every, unfit) -> {
            List<Target> targets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                targets.add(Target.node("node-" + i, every > 0 && i == 1 ? "2.0" : "1.0"));
            }
            for (int i = 0; i < labels.size(); i++) {
                Target d = device(i, labels.get(i), every > 0 && i % every == 3 ? "2.0" : "1.0");
                targets.add(unfit > 0 && i % unfit == 1 ? d.withHealth(i % 2 == 0, i % 2 == 1) : d);
            }
            return new Inventory(targets);
        });
    }

    /** Device {@code i}: its labels follow from its name, so re-adding it never moves it to another group. */
    public static Target device(int i, String label, String version) {
        return Target.device(String.format("dev-%02d-%s", i, label), version, label.equals("none") ? Map.of() : Map.of("tier", label));
    }

    public static Gen<Scenario> scenarios(boolean withWindowEnd) {
        return Gen.combine(specs(withWindowEnd), inventories(), Scenario::new);
    }

    /**
     * Checks the safety invariants of §4 on a state and the ops just issued: at most maxParallel device ops and
     * one node op in flight, one op per target, no device precheck before its group's turn, no device upgrade
     * while the control plane is unfinished or an earlier group has unfinished devices, and (via
     * {@code issuedIds}, every op id ever issued) no op id issued twice.
     */
    public static void checkInvariants(RolloutState s, List<RolloutCommand.IssueOp> issued, Set<String> issuedIds) {
        RolloutSpec spec = s.spec();
        Set<TargetRef> busy = new HashSet<>();
        int deviceOps = 0;
        int nodeOps = 0;
        for (InFlightOp op : s.inFlight()) {
            if (!busy.add(op.target())) {
                throw new AssertionError("two ops at once for " + op.target() + ": " + s.inFlight());
            }
            if (op.target().kind() == TargetKind.DEVICE) {
                deviceOps++;
            }
            if (op.target().kind() == TargetKind.NODE) {
                nodeOps++;
            }
        }
        int allowed = 0;
        for (InFlightOp op : s.inFlight()) {
            if (op.target().kind() == TargetKind.DEVICE) {
                allowed = Math.max(allowed, spec.maxParallel().forGroup(groupSize(s, groupOf(s, op.target()))));
            }
        }
        if (deviceOps > allowed) {
            throw new AssertionError(deviceOps + " device ops in flight > maxParallel " + spec.maxParallel() + " (" + allowed + ")");
        }
        if (nodeOps > 1) {
            throw new AssertionError(nodeOps + " node ops in flight");
        }
        for (RolloutCommand.IssueOp op : issued) {
            if (!issuedIds.add(op.opId())) {
                throw new AssertionError("op id issued twice: " + op.opId());
            }
        }
        checkPrecheckOrder(s);
        for (InFlightOp op : s.inFlight()) {
            if (op.target().kind() != TargetKind.DEVICE || op.kind() != OpKind.UPGRADE) {
                continue;
            }
            if (spec.upgradeControlPlane()) {
                for (TargetRecord r : s.targets()) {
                    boolean controlPlane = r.target().kind() == TargetKind.NODE || r.target().kind() == TargetKind.SERVICES;
                    if (controlPlane && r.status() != TargetStatus.SUCCEEDED && r.status() != TargetStatus.SKIPPED
                            && r.status() != TargetStatus.REMOVED) {
                        throw new AssertionError("device " + op.target() + " running while " + r.target() + " is " + r.status());
                    }
                }
            }
            int group = groupOf(s, op.target());
            for (TargetRecord r : s.targets()) {
                if (r.target().kind() == TargetKind.DEVICE && s.inventory().find(r.target()).isPresent()
                        && groupOf(s, r.target()) < group && !r.status().terminal()) {
                    throw new AssertionError("device " + op.target() + " (group " + group + ") running while "
                            + r.target() + " of group " + groupOf(s, r.target()) + " is " + r.status());
                }
            }
        }
    }

    /**
     * Prechecks never run a device before its group's turn: while a device precheck is in flight, no device of
     * an earlier group still waits for its precheck or has one running.
     */
    static void checkPrecheckOrder(RolloutState s) {
        for (InFlightOp op : s.inFlight()) {
            if (op.kind() != OpKind.PRECHECK || op.target().kind() != TargetKind.DEVICE) {
                continue;
            }
            int group = groupOf(s, op.target());
            for (TargetRecord r : s.targets()) {
                if (r.target().kind() != TargetKind.DEVICE || r.status() == TargetStatus.SKIPPED
                        || r.status() == TargetStatus.REMOVED || groupOf(s, r.target()) >= group) {
                    continue;
                }
                boolean waiting = r.status() == TargetStatus.PENDING && !r.prechecked();
                boolean running = s.inFlight().stream().anyMatch(o -> o.target().equals(r.target()) && o.kind() == OpKind.PRECHECK);
                if (waiting || running) {
                    throw new AssertionError("precheck of " + op.target() + " (group " + group + ") runs while "
                            + r.target() + " of group " + groupOf(s, r.target()) + (waiting ? " waits for" : " runs") + " its precheck");
                }
            }
        }
    }

    /** Devices of group {@code group} the rollout covers (not skipped, not removed), as the machine counts them. */
    static int groupSize(RolloutState s, int group) {
        int n = 0;
        for (TargetRecord r : s.targets()) {
            if (r.target().kind() == TargetKind.DEVICE && r.status() != TargetStatus.SKIPPED
                    && r.status() != TargetStatus.REMOVED && groupOf(s, r.target()) == group) {
                n++;
            }
        }
        return n;
    }

    static int groupOf(RolloutState s, TargetRef device) {
        return s.inventory().find(device).map(t -> Grouping.groupOf(s.spec(), t.labels()).orElse(Integer.MAX_VALUE))
                .orElse(Integer.MAX_VALUE);
    }
}
