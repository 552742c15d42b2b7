package dev.hotspare.spring;

import dev.hotspare.pool.runtime.PoolController;

/**
 * A bean of this type adjusts each pool's {@link PoolController.Builder} after the starter has set it up
 * (scheduler, resync period, KPIs) and before the controller is built: add a plan listener, change the resync
 * period of one pool. Customizers run in {@link org.springframework.core.Ordered} order.
 */
@FunctionalInterface
public interface HotsparePoolCustomizer {

    /**
     * Adjusts the builder of one pool.
     *
     * @param pool    the pool's name (its key under {@code hotspare.pools})
     * @param builder the builder, already configured by the starter
     */
    void customize(String pool, PoolController.Builder builder);
}
