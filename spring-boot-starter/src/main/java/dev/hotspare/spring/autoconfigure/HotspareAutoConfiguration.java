package dev.hotspare.spring.autoconfigure;

import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.spring.HotspareConfigurationException;
import dev.hotspare.spring.internal.Backend;
import dev.hotspare.spring.internal.ConditionalOnStore;
import dev.hotspare.spring.internal.KubernetesBackend;
import dev.hotspare.spring.internal.MemoryBackend;
import dev.hotspare.spring.internal.OnStoreCondition;
import dev.hotspare.spring.internal.OwnedTaskScheduler;
import dev.hotspare.spring.internal.PoolRegistrar;
import dev.hotspare.spring.internal.PostgresBackend;
import dev.hotspare.spring.internal.RedisBackend;
import dev.hotspare.time.TaskScheduler;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.lettuce.core.RedisClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

import javax.sql.DataSource;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * hotspare's auto-configuration: the {@code hotspare.*} properties, the runtime's {@link TaskScheduler} on an
 * executor the starter owns, the chosen store ({@code hotspare.store}: memory by default, or postgres / redis /
 * kubernetes on the application's {@code DataSource}, Lettuce {@code RedisClient} or fabric8
 * {@code KubernetesClient} bean), and one {@link dev.hotspare.pool.runtime.PoolController} bean per pool under
 * {@code hotspare.pools}, started with the context. The fleet, metrics and health have their own
 * auto-configurations ({@link HotspareFleetAutoConfiguration}, {@link HotspareMetricsAutoConfiguration},
 * {@link HotspareHealthAutoConfiguration}).
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration"})
@EnableConfigurationProperties(HotspareProperties.class)
@Import(PoolRegistrar.class)
public class HotspareAutoConfiguration {

    private static final String STORE = HotspareProperties.PREFIX + ".store";

    /** Spring instantiates auto-configurations itself. */
    public HotspareAutoConfiguration() {
    }

    /**
     * Real time on the starter's own executor ({@code hotspare.threads} threads), shut down with the context.
     * An application's own {@link TaskScheduler} bean (a virtual-time one in tests, say) replaces it.
     *
     * @return the scheduler every pool and the fleet run on
     */
    @Bean
    @ConditionalOnMissingBean(TaskScheduler.class)
    public TaskScheduler hotspareTaskScheduler(HotspareProperties properties) {
        return new OwnedTaskScheduler(properties.getThreads(), Clock.systemUTC());
    }

    /**
     * This instance's place among the instances sharing the store ({@code hotspare.ownership.*}); holds no member on
     * memory or when switched off.
     *
     * @param backend    the chosen store
     * @param tasks      the runtime's scheduler
     * @param kpis       every KPI listener bean, told of ownership changes
     * @return the ownership of this application, closed with the context
     */
    @Bean
    public dev.hotspare.spring.internal.HotspareOwnership hotspareOwnership(Backend backend, HotspareProperties properties,
                                                                          TaskScheduler tasks,
                                                                          ObjectProvider<dev.hotspare.kpi.KpiListener> kpis) {
        List<dev.hotspare.kpi.KpiListener> listeners = kpis.orderedStream().toList();
        return dev.hotspare.spring.internal.HotspareOwnership.of(backend, properties.getOwnership(), tasks,
                listeners.isEmpty() ? dev.hotspare.kpi.KpiListener.NONE : dev.hotspare.kpi.KpiListener.all(listeners));
    }

    /** The {@code hotspareownership} actuator endpoint, when Spring Boot's actuator is on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
    static class OwnershipEndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        dev.hotspare.spring.internal.HotspareOwnershipEndpoint hotspareOwnershipEndpoint(
                dev.hotspare.spring.internal.HotspareOwnership ownership) {
            return new dev.hotspare.spring.internal.HotspareOwnershipEndpoint(ownership);
        }
    }

    /** {@code hotspare.store=memory} (or unset): everything in memory. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnStore(HotspareProperties.Store.MEMORY)
    static class MemoryStoreConfiguration {

        @Bean
        Backend hotspareBackend(TaskScheduler tasks, HotspareProperties properties) {
            return new MemoryBackend(tasks, properties.getMemory());
        }
    }

    /** {@code hotspare.store=postgres}: the application's {@code DataSource}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnStore(HotspareProperties.Store.POSTGRES)
    static class PostgresStoreConfiguration {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "dev.hotspare.postgres.PostgresClaimStore")
        static class WithAdapter {

            @Bean
            Backend hotspareBackend(ObjectProvider<DataSource> dataSources, TaskScheduler tasks, HotspareProperties properties) {
                DataSource dataSource = dataSources.getIfUnique();
                if (dataSource == null) {
                    throw missingBean("postgres", "a javax.sql.DataSource bean (one, or one marked @Primary): add"
                            + " spring-boot-starter-jdbc and set spring.datasource.url, or define one");
                }
                return new PostgresBackend(dataSource, properties.getPostgres(), tasks, properties.getMemory());
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnMissingClass("dev.hotspare.postgres.PostgresClaimStore")
        static class WithoutAdapter {

            @Bean
            Backend hotspareBackend() {
                throw missingAdapter("postgres", "hotspare-spi-postgres");
            }
        }
    }

    /** {@code hotspare.store=redis}: the application's Lettuce {@code RedisClient}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnStore(HotspareProperties.Store.REDIS)
    static class RedisStoreConfiguration {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = {"dev.hotspare.redis.RedisLockStore", "io.lettuce.core.RedisClient"})
        static class WithAdapter {

            @Bean
            Backend hotspareBackend(ObjectProvider<RedisClient> clients, TaskScheduler tasks, HotspareProperties properties) {
                RedisClient client = clients.getIfUnique();
                if (client == null) {
                    throw missingBean("redis", "an io.lettuce.core.RedisClient bean (one, or one marked @Primary), e.g."
                            + " @Bean RedisClient redisClient() { return RedisClient.create(\"redis://localhost:6379\"); }");
                }
                return new RedisBackend(client, properties.getRedis(),
                        () -> MemoryBackend.memberDriver(tasks, properties.getMemory()));
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnMissingClass("dev.hotspare.redis.RedisLockStore")
        static class WithoutAdapter {

            @Bean
            Backend hotspareBackend() {
                throw missingAdapter("redis", "hotspare-spi-redis");
            }
        }
    }

    /** {@code hotspare.store=kubernetes}: the application's fabric8 {@code KubernetesClient}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnStore(HotspareProperties.Store.KUBERNETES)
    static class KubernetesStoreConfiguration {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = {"dev.hotspare.kubernetes.CustomResourceMemberDriver",
                "io.fabric8.kubernetes.client.KubernetesClient"})
        static class WithAdapter {

            @Bean
            Backend hotspareBackend(ObjectProvider<KubernetesClient> clients, TaskScheduler tasks, HotspareProperties properties) {
                KubernetesClient client = clients.getIfUnique();
                if (client == null) {
                    throw missingBean("kubernetes", "an io.fabric8.kubernetes.client.KubernetesClient bean (one, or one"
                            + " marked @Primary), e.g. @Bean KubernetesClient kubernetesClient() { return new"
                            + " KubernetesClientBuilder().build(); }");
                }
                return new KubernetesBackend(client, properties.getKubernetes(), tasks);
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnMissingClass("dev.hotspare.kubernetes.CustomResourceMemberDriver")
        static class WithoutAdapter {

            @Bean
            Backend hotspareBackend() {
                throw missingAdapter("kubernetes", "hotspare-spi-kubernetes");
            }
        }
    }

    /** A {@code hotspare.store} that names no store: say which there are, instead of failing on a missing bean. */
    @Configuration(proxyBeanMethods = false)
    @OnStoreCondition.UnknownStore
    static class UnknownStoreConfiguration {

        @Bean
        Backend hotspareBackend(Environment environment) {
            throw new HotspareConfigurationException(STORE, environment.getProperty(STORE, ""), "names no store; use one of "
                    + Arrays.stream(HotspareProperties.Store.values()).map(HotspareProperties.Store::propertyValue)
                    .collect(Collectors.joining(", ")));
        }
    }

    private static HotspareConfigurationException missingBean(String store, String what) {
        return new HotspareConfigurationException(STORE, store, "needs " + what);
    }

    private static HotspareConfigurationException missingAdapter(String store, String artifact) {
        return new HotspareConfigurationException(STORE, store, "needs the dev.hotspare:" + artifact
                + " dependency on the class path (the starter declares the adapters optional: add the one you use)");
    }
}
