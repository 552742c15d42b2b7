package dev.hotspare.fleet.autoscale;

import java.util.Locale;

/** Resources whose usage is measured against the rooms' requests. */
public enum ResourceMetric {
    /** Cores. */
    CPU,
    /** Bytes. */
    MEM;

    /**
     * The trigger type name ({@code cpu}, {@code mem}).
     */
    public String typeName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
