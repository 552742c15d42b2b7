package dev.hotspare.fleet.autoscale.internal;

import dev.hotspare.fleet.autoscale.ResourceMetric;

/** {@code cpu}: usage of cpu against {@code requests.cpu}; see {@link ResourcePolicy}. */
public final class CpuPolicy extends ResourcePolicy {
    public CpuPolicy() {
        super(ResourceMetric.CPU);
    }
}
