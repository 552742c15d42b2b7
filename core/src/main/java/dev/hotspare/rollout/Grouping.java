package dev.hotspare.rollout;

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
     * are left out; nodes are not (their health is the precheck stage's business: it fails on them).
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
        return Optional.empty();
    }

    /** Nodes that fail the precheck stage before any precheck op runs: not admitted or not healthy, with why. */
    static List<String> unfitNodes(Inventory inventory) {
        List<String> out = new ArrayList<>();
        for (Target node : inventory.ofKind(TargetKind.NODE)) {
            node.unfitReason().ifPresent(why -> out.add("node " + node.name() + " is " + why));
        }
        return out;
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
