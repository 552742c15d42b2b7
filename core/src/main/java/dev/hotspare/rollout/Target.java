package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/**
 * One entry of a rollout {@link Inventory}: a node or a device with its labels and the version it runs now.
 * Validated as part of its inventory.
 *
 * @param kind    NODE or DEVICE
 * @param name    a DNS-1123 label, unique per kind
 * @param labels  labels matched by the spec's device selectors
 * @param version the version the target runs now
 */
public record Target(TargetKind kind, String name, Map<String, String> labels, String version) {

    public Target {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    @JsonCreator
    static Target fromJson(@JsonProperty("kind") TargetKind kind, @JsonProperty("name") String name,
                           @JsonProperty("labels") Map<String, String> labels, @JsonProperty("version") String version) {
        return new Target(kind, name, labels, version);
    }

    /** A node at {@code version}. */
    public static Target node(String name, String version) {
        return new Target(TargetKind.NODE, name, Map.of(), version);
    }

    /** A device at {@code version} with {@code labels}. */
    public static Target device(String name, String version, Map<String, String> labels) {
        return new Target(TargetKind.DEVICE, name, labels, version);
    }

    /** This target's reference. */
    public TargetRef ref() {
        return new TargetRef(kind, name);
    }
}
