package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;
import java.util.Optional;

/**
 * One entry of a rollout {@link Inventory}: a node or a device with its labels, the version it runs now, and
 * whether it is admitted to the cluster and healthy, as observed. Validated as part of its inventory.
 *
 * <p>A device that is not admitted or not healthy is skipped (with the reason) when the rollout is created or
 * the inventory changes; a device skipped as not healthy (an unreachable device reports not healthy) makes the
 * rollout end FAILED, as Venice's. With prechecks, a node that is not admitted (has not joined) is left out of
 * the node prechecks, and a node that is not healthy fails the precheck stage when it starts, naming it.
 *
 * @param kind     NODE or DEVICE
 * @param name     a DNS-1123 label, unique per kind
 * @param labels   labels matched by the spec's device selectors
 * @param version  the version the target runs now
 * @param admitted whether the target is a member of the cluster (a node that joined, a device that was
 *                 admitted); default true
 * @param healthy  whether the target reports healthy; default true
 */
public record Target(TargetKind kind, String name, Map<String, String> labels, String version, boolean admitted,
                     boolean healthy) {

    /**
     * Copies the labels.
     *
     * @param kind     NODE or DEVICE
     * @param name     a DNS-1123 label, unique per kind
     * @param labels   labels matched by the spec's device selectors
     * @param version  the version the target runs now
     * @param admitted whether the target is a member of the cluster (a node that joined, a device that was admitted); default true
     * @param healthy  whether the target reports healthy; default true
     */
    public Target {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    /**
     * An admitted, healthy target.
     *
     * @param kind    NODE or DEVICE
     * @param name    its name
     * @param labels  its labels
     * @param version the version it runs
     */
    public Target(TargetKind kind, String name, Map<String, String> labels, String version) {
        this(kind, name, labels, version, true, true);
    }

    @JsonCreator
    static Target fromJson(@JsonProperty("kind") TargetKind kind, @JsonProperty("name") String name,
                           @JsonProperty("labels") Map<String, String> labels, @JsonProperty("version") String version,
                           @JsonProperty("admitted") Boolean admitted, @JsonProperty("healthy") Boolean healthy) {
        return new Target(kind, name, labels, version, admitted == null || admitted, healthy == null || healthy);
    }

    /**
     * An admitted, healthy node.
     *
     * @param name    its name
     * @param version the version it runs
     * @return the target
     */
    public static Target node(String name, String version) {
        return new Target(TargetKind.NODE, name, Map.of(), version);
    }

    /**
     * An admitted, healthy device.
     *
     * @param name    its name
     * @param version the version it runs
     * @param labels  its labels
     * @return the target
     */
    public static Target device(String name, String version, Map<String, String> labels) {
        return new Target(TargetKind.DEVICE, name, labels, version);
    }

    /**
     * This target with other health.
     *
     * @param isAdmitted whether it is a member of the cluster
     * @param isHealthy  whether it reports healthy
     * @return a copy
     */
    public Target withHealth(boolean isAdmitted, boolean isHealthy) {
        return new Target(kind, name, labels, version, isAdmitted, isHealthy);
    }

    /**
     * This target's reference.
     *
     * @return kind and name
     */
    public TargetRef ref() {
        return new TargetRef(kind, name);
    }

    /**
     * Why the target is unfit for an upgrade: not admitted, not healthy; empty when it is fit.
     *
     * @return the reason, if any
     */
    public Optional<String> unfitReason() {
        if (!admitted) {
            return Optional.of("not admitted to the cluster");
        }
        if (!healthy) {
            return Optional.of("not healthy");
        }
        return Optional.empty();
    }

    /** What a rollout target is. Inventories hold NODE and DEVICE targets; SERVICES addresses the leader's services agent. */
    public enum TargetKind {
        /** A control-plane node: upgraded one at a time, first. */
        NODE,
        /** The one services op, executed by the agent on the current leader node. */
        SERVICES,
        /** A device (smart NIC, appliance): upgraded last, group by group. */
        DEVICE
    }
}
