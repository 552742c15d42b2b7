package dev.hotspare.spring;

import dev.hotspare.fleet.runtime.Fleet;

/**
 * A bean of this type adjusts the {@link Fleet.Builder} after the starter has given it the chosen store's
 * adapters, its settings and the KPI listener, and before the fleet is built: an autoscaler with your own
 * policies, an event dispatcher, another store for one port (a {@code PostgresSchedulerStore} next to Redis
 * locks). Customizers run in {@link org.springframework.core.Ordered} order, last wins.
 */
@FunctionalInterface
public interface HotspareFleetCustomizer {

    /**
     * Adjusts the fleet's builder.
     *
     * @param builder the builder, already configured by the starter
     */
    void customize(Fleet.Builder builder);
}
