package dev.hotspare.fleet.autoscale.internal;

import dev.hotspare.fleet.autoscale.ResourceMetric;

/** {@code mem}: usage of memory against {@code requests.memory}; see {@link ResourcePolicy}. */
public final class MemPolicy extends ResourcePolicy {
    public MemPolicy() {
        super(ResourceMetric.MEM);
    }
}
