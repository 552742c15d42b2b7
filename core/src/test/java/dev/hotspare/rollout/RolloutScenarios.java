package dev.hotspare.rollout;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

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

    /** Specs of every shape; {@code withWindowEnd} allows windows that close. */
    public static Arbitrary<RolloutSpec> specs(boolean withWindowEnd) {
        Arbitrary<List<String>> order = Arbitraries.of("a", "b", "c").list().uniqueElements().ofMaxSize(3);
        Arbitrary<RolloutSpec.Builder> base = Combinators.combine(
                Arbitraries.of(true, false), order, Arbitraries.of(UnmatchedDevices.class),
                Arbitraries.of(DeviceStrategy.class), Arbitraries.integers().between(1, 4), Arbitraries.of(true, false),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(1, 3)
        ).as((cp, ord, unmatched, strategy, parallel, prechecks, maxFailures, attempts) -> {
            RolloutSpec.Builder b = RolloutSpec.builder("r1", "2.0").upgradeControlPlane(cp).unmatchedDevices(unmatched)
                    .strategy(strategy).maxParallel(parallel).prechecks(prechecks).maxFailures(maxFailures)
                    .retry(attempts, Duration.ofMinutes(2))
                    .timeouts(new OpTimeouts(Duration.ofMinutes(20), Duration.ofMinutes(20), Duration.ofMinutes(15)));
            ord.forEach(label -> b.deviceGroup("tier", label));
            return b;
        });
        Arbitrary<Optional<MaintenanceWindow>> windows = Arbitraries.integers().between(0, 3).flatMap(kind -> switch (kind) {
            case 0, 1 -> Arbitraries.just(Optional.<MaintenanceWindow>empty());
            case 2 -> Arbitraries.integers().between(0, 120).map(m -> Optional.of(MaintenanceWindow.from(T0.plus(Duration.ofMinutes(m)))));
            default -> withWindowEnd
                    ? Combinators.combine(Arbitraries.integers().between(0, 60), Arbitraries.integers().between(1, 400))
                    .as((s, len) -> Optional.of(MaintenanceWindow.between(T0.plus(Duration.ofMinutes(s)), T0.plus(Duration.ofMinutes(s + len)))))
                    : Arbitraries.just(Optional.<MaintenanceWindow>empty());
        });
        return Combinators.combine(base, windows).as((b, w) -> {
            w.ifPresent(b::window);
            return b.build();
        });
    }

    /** Inventories of up to 3 nodes and 10 devices, labelled from a small set; a few targets already current. */
    public static Arbitrary<Inventory> inventories() {
        Arbitrary<Integer> nodes = Arbitraries.integers().between(0, 3);
        Arbitrary<List<String>> devices = Arbitraries.of(LABELS).list().ofMaxSize(10);
        Arbitrary<Integer> currentEvery = Arbitraries.of(0, 0, 0, 4);
        return Combinators.combine(nodes, devices, currentEvery).as((n, labels, every) -> {
            List<Target> targets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                targets.add(Target.node("node-" + i, every > 0 && i == 1 ? "2.0" : "1.0"));
            }
            for (int i = 0; i < labels.size(); i++) {
                targets.add(device(i, labels.get(i), every > 0 && i % every == 3 ? "2.0" : "1.0"));
            }
            return new Inventory(targets);
        });
    }

    /** Device {@code i}: its labels follow from its name, so re-adding it never moves it to another group. */
    public static Target device(int i, String label, String version) {
        return Target.device(String.format("dev-%02d-%s", i, label), version, label.equals("none") ? Map.of() : Map.of("tier", label));
    }

    public static Arbitrary<Scenario> scenarios(boolean withWindowEnd) {
        return Combinators.combine(specs(withWindowEnd), inventories()).as(Scenario::new);
    }

    /**
     * Checks the safety invariants of §4 on a state and the ops just issued: at most maxParallel device ops and
     * one node op in flight, one op per target, no device upgrade while the control plane is unfinished or an
     * earlier group has unfinished devices, and (via {@code issuedIds}, every op id ever issued) no op id
     * issued twice.
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
        if (deviceOps > spec.maxParallel()) {
            throw new AssertionError(deviceOps + " device ops in flight > maxParallel " + spec.maxParallel());
        }
        if (nodeOps > 1) {
            throw new AssertionError(nodeOps + " node ops in flight");
        }
        for (RolloutCommand.IssueOp op : issued) {
            if (!issuedIds.add(op.opId())) {
                throw new AssertionError("op id issued twice: " + op.opId());
            }
        }
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

    private static int groupOf(RolloutState s, TargetRef device) {
        return s.inventory().find(device).map(t -> Grouping.groupOf(s.spec(), t.labels()).orElse(Integer.MAX_VALUE))
                .orElse(Integer.MAX_VALUE);
    }
}
