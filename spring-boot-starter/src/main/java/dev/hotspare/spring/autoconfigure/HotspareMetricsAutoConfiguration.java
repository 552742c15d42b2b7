package dev.hotspare.spring.autoconfigure;

import dev.hotspare.spring.HotspareMeterBinder;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * hotspare's KPIs in Micrometer when Micrometer and {@code hotspare-micrometer} are on the class path: a
 * {@link HotspareMeterBinder} bean, which Spring Boot's metrics auto-configuration binds to the application's
 * registries and the starter plugs into every pool and the fleet.
 */
@AutoConfiguration(before = {HotspareAutoConfiguration.class, HotspareFleetAutoConfiguration.class})
@ConditionalOnClass(name = {"io.micrometer.core.instrument.binder.MeterBinder", "dev.hotspare.micrometer.MicrometerKpis"})
public class HotspareMetricsAutoConfiguration {

    /** Spring instantiates auto-configurations itself. */
    public HotspareMetricsAutoConfiguration() {
    }

    /**
     * The binder, unless the application defines its own.
     *
     * @return a binder bound to no registry yet
     */
    @Bean
    @ConditionalOnMissingBean
    public HotspareMeterBinder hotspareMeterBinder() {
        return new HotspareMeterBinder();
    }
}
