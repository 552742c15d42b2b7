package dev.hotspare.spring.autoconfigure;

import dev.hotspare.spring.internal.Backend;
import dev.hotspare.spring.internal.PendingClaimReasons;
import dev.hotspare.spring.internal.PoolHealthIndicator;
import dev.hotspare.spring.internal.PoolRegistrar;
import dev.hotspare.spring.internal.PoolRuntimes;
import dev.hotspare.spring.internal.StoreHealthIndicator;
import dev.hotspare.time.TaskScheduler;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * hotspare's health when Spring Boot's health module is on the class path (and
 * {@code management.health.hotspare.enabled} is not false): one contributor, {@code hotspare}, holding a
 * {@code store} indicator (DOWN when the chosen store does not answer) and, under {@code pools}, one indicator per
 * pool (DOWN when its store does not answer; details hot / warm / claimed / pending and the waiting claims). With
 * the actuator: {@code /actuator/health/hotspare}, {@code /actuator/health/hotspare/pools/ci}.
 */
@AutoConfiguration(after = {HotspareAutoConfiguration.class, HotspareFleetAutoConfiguration.class})
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnEnabledHealthIndicator("hotspare")
public class HotspareHealthAutoConfiguration {

    /** Spring instantiates auto-configurations itself. */
    public HotspareHealthAutoConfiguration() {
    }

    /**
     * The {@code hotspare} health contributor.
     *
     * @param backend the chosen store
     * @param tasks   the runtime's scheduler, whose clock dates pending claims
     * @return a composite of the store's and each pool's indicator
     */
    @Bean
    public CompositeHealthContributor hotspareHealthContributor(Backend backend,
                                                                @Qualifier(PoolRegistrar.RUNTIMES_BEAN) PoolRuntimes pools,
                                                                TaskScheduler tasks) {
        Map<String, HealthContributor> contributors = new LinkedHashMap<>();
        contributors.put("store", new StoreHealthIndicator(backend));
        if (!pools.entries().isEmpty()) {
            Map<String, HealthContributor> perPool = new LinkedHashMap<>();
            pools.entries().forEach((name, entry) ->
                    perPool.put(name, new PoolHealthIndicator(entry, tasks.clock(), PendingClaimReasons.FROM_LAST_PLAN)));
            contributors.put("pools", CompositeHealthContributor.fromMap(perPool));
        }
        return CompositeHealthContributor.fromMap(contributors);
    }
}
