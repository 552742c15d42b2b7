package dev.hotspare.rollout;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Duration;

/**
 * How long one op may take before it counts as failed (and is cancelled). Prechecks use the timeout of
 * their target's kind.
 *
 * @param node     per node op; default 30 minutes
 * @param services the services op; default 30 minutes
 * @param device   per device op; default 15 minutes
 */
public record OpTimeouts(Duration node, Duration services, Duration device) {

    public static final Duration DEFAULT_NODE = Duration.ofMinutes(30);
    public static final Duration DEFAULT_SERVICES = Duration.ofMinutes(30);
    public static final Duration DEFAULT_DEVICE = Duration.ofMinutes(15);

    /** The defaults. */
    public static OpTimeouts defaults() {
        return new OpTimeouts(DEFAULT_NODE, DEFAULT_SERVICES, DEFAULT_DEVICE);
    }

    @JsonCreator
    static OpTimeouts fromJson(@JsonProperty("node") Duration node, @JsonProperty("services") Duration services,
                               @JsonProperty("device") Duration device) {
        return new OpTimeouts(node == null ? DEFAULT_NODE : node, services == null ? DEFAULT_SERVICES : services,
                device == null ? DEFAULT_DEVICE : device);
    }

    /** The timeout for an op addressed to a target of {@code kind}. */
    public Duration forKind(TargetKind kind) {
        return switch (kind) {
            case NODE -> node;
            case SERVICES -> services;
            case DEVICE -> device;
        };
    }
}
