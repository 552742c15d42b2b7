package dev.hotspare.rollout;

import dev.hotspare.rollout.Target.TargetKind;
import java.util.Comparator;
import java.util.Objects;

/**
 * Identifies a rollout target (or, for {@link TargetKind#SERVICES}, the node whose services agent an op is
 * addressed to).
 *
 * @param kind what the target is
 * @param name its name (a DNS-1123 label)
 */
public record TargetRef(TargetKind kind, String name) implements Comparable<TargetRef> {

    /** Name of the logical services target in a rollout's state. */
    public static final String SERVICES_NAME = "services";

    private static final Comparator<TargetRef> ORDER =
            Comparator.comparing(TargetRef::kind).thenComparing(TargetRef::name);

    /**
     * Validates and normalises the components.
     *
     * @param kind what the target is
     * @param name its name (a DNS-1123 label)
     */
    public TargetRef {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
    }

    /**
     * A node target.
     *
     * @param name the node's name
     * @return the reference
     */
    public static TargetRef node(String name) {
        return new TargetRef(TargetKind.NODE, name);
    }

    /**
     * A device target.
     *
     * @param name the device's name
     * @return the reference
     */
    public static TargetRef device(String name) {
        return new TargetRef(TargetKind.DEVICE, name);
    }

    /**
     * The services agent running on {@code leaderNode}.
     *
     * @param leaderNode the leader's node name
     * @return the address of its services agent
     */
    public static TargetRef servicesOn(String leaderNode) {
        return new TargetRef(TargetKind.SERVICES, leaderNode);
    }

    /**
     * The logical services target recorded in a rollout's state.
     */
    public static TargetRef services() {
        return new TargetRef(TargetKind.SERVICES, SERVICES_NAME);
    }

    @Override
    public int compareTo(TargetRef other) {
        return ORDER.compare(this, other);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + "/" + name;
    }
}
