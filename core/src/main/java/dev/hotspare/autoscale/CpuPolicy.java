package dev.hotspare.autoscale;

import dev.hotspare.spi.ResourceMetric;

/** {@code cpu}: usage of cpu against {@code requests.cpu}; see {@link ResourcePolicy}. */
public final class CpuPolicy extends ResourcePolicy {
    public CpuPolicy() {
        super(ResourceMetric.CPU);
    }
}
