package dev.hotspare.rollout;

import dev.hotspare.rollout.RolloutSpec.LabelSelector;
import dev.hotspare.rollout.RolloutSpec.UnmatchedDevices;
import dev.hotspare.rollout.RolloutState.TargetRecord;
import dev.hotspare.rollout.RolloutState.TargetStatus;
import dev.hotspare.rollout.Target.TargetKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** Group membership, skip rules and batch sizes: shared by the planner and the machine so preview and execution agree. */
final class Grouping {

    private Grouping() {
    }

    /** Number of device groups: one per selector, plus the unmatched group when unmatched devices are upgraded. */
    static int groupCount(RolloutSpec spec) {
        return spec.deviceOrder().size() + (spec.unmatchedDevices() == UnmatchedDevices.UPGRADE_LAST ? 1 : 0);
    }

    /** The group of a device with {@code labels}: its first matching selector, else the unmatched group, else none. */
    static OptionalInt groupOf(RolloutSpec spec, Map<String, String> labels) {
        List<LabelSelector> order = spec.deviceOrder();
        for (int i = 0; i < order.size(); i++) {
            if (order.get(i).matches(labels)) {
                return OptionalInt.of(i);
            }
        }
        return spec.unmatchedDevices() == UnmatchedDevices.UPGRADE_LAST ? OptionalInt.of(order.size()) : OptionalInt.empty();
    }

    /** Human name of group {@code index}. */
    static String groupName(RolloutSpec spec, int index) {
        return index < spec.deviceOrder().size() ? spec.deviceOrder().get(index).describe() : "unmatched";
    }

    /**
     * Why {@code target} is not upgraded at all, or empty if it is. Devices that are not admitted or not healthy
     * are left out. With prechecks, a node that has not joined the cluster is left out of the node prechecks (and
     * so of the upgrade), as Venice's; an unhealthy node is the precheck stage's business (it fails on it).
     */
    static Optional<String> skipReason(RolloutSpec spec, Target target) {
        if (target.kind() == TargetKind.NODE && !spec.upgradeControlPlane()) {
            return Optional.of("control plane upgrade is off");
        }
        if (target.kind() == TargetKind.DEVICE && groupOf(spec, target.labels()).isEmpty()) {
            return Optional.of("matches no selector and unmatchedDevices is SKIP");
        }
        if (target.version().equals(spec.targetVersion())) {
            return Optional.of("already at version " + spec.targetVersion());
        }
        if (target.kind() == TargetKind.DEVICE) {
            return target.unfitReason();
        }
        if (spec.prechecks() && !target.admitted()) {
            return Optional.of(NODE_NOT_JOINED);
        }
        return Optional.empty();
    }

    /** Why a node that has not joined the cluster is left out of a rollout with prechecks. */
    static final String NODE_NOT_JOINED = "not admitted to the cluster: left out of the node prechecks";

    /** Why a device is skipped as unhealthy: such a skip makes the rollout end FAILED (Venice fails it as skipped). */
    static final String DEVICE_NOT_HEALTHY = "not healthy";

    /**
     * Nodes that fail the precheck stage before any precheck op runs, with why: with prechecks, the admitted
     * nodes that are not healthy (a node that has not joined is left out instead, see {@link #skipReason});
     * without, every unfit node (only warned about).
     */
    static List<String> unfitNodes(RolloutSpec spec, Inventory inventory) {
        List<String> out = new ArrayList<>();
        for (Target node : inventory.ofKind(TargetKind.NODE)) {
            if (spec.prechecks() && !node.admitted()) {
                continue;
            }
            node.unfitReason().ifPresent(why -> out.add("node " + node.name() + " is " + why));
        }
        return out;
    }

    /**
     * Whether {@code record} is a device skipped because it is not healthy (and was never touched): the rollout
     * then ends FAILED, as Venice's, even though every other device succeeded.
     */
    static boolean skippedAsUnhealthy(TargetRecord record) {
        return record.target().kind() == TargetKind.DEVICE && record.status() == TargetStatus.SKIPPED
                && record.attempts() == 0 && record.message().filter(DEVICE_NOT_HEALTHY::equals).isPresent();
    }

    /** EXPONENTIAL batch sizes for {@code devices} devices: 1, 2, 4, … capped at {@code maxParallel}. */
    static List<Integer> exponentialBatchSizes(int devices, int maxParallel) {
        List<Integer> sizes = new ArrayList<>();
        int remaining = devices;
        for (int k = 0; remaining > 0; k++) {
            int size = exponentialBatchSize(k, maxParallel);
            size = Math.min(size, remaining);
            sizes.add(size);
            remaining -= size;
        }
        return sizes;
    }

    /** Size of EXPONENTIAL batch number {@code k} (0-based) inside a group. */
    static int exponentialBatchSize(int k, int maxParallel) {
        return k >= 30 ? maxParallel : Math.min(1 << k, maxParallel);
    }
}
