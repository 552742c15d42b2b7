package dev.hotspare.fleet;

import java.util.Optional;

/**
 * Kubernetes resource amounts for one room: {@code requests} (what the cpu and mem triggers measure usage
 * against) or {@code limits}.
 *
 * @param cpu    cores, e.g. {@code 1000m}
 * @param memory bytes, e.g. {@code 1Gi}
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
public record Resources(Optional<Quantity> cpu, Optional<Quantity> memory) {

    /** No amounts set. */
    public static final Resources NONE = new Resources(Optional.empty(), Optional.empty());

    public Resources {
        cpu = cpu == null ? Optional.empty() : cpu;
        memory = memory == null ? Optional.empty() : memory;
    }
}
