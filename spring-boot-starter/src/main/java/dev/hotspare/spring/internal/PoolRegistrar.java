package dev.hotspare.spring.internal;

import dev.hotspare.kpi.KpiListener;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spring.HotsparePoolCustomizer;
import dev.hotspare.spring.HotspareProperties;
import dev.hotspare.time.TaskScheduler;
import org.springframework.beans.factory.BeanRegistrar;
import org.springframework.beans.factory.BeanRegistry;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Registers the pools' runtime and one {@link PoolController} bean per key under {@code hotspare.pools}, named
 * {@code hotspare.pools.<name>} (inject one with {@code @Qualifier("hotspare.pools.ci")}, or all with
 * {@code Map<String, PoolController>}). The names are read from the environment when beans are registered; the
 * specs are read, and validated all at once, when the runtime bean is created.
 */
public final class PoolRegistrar implements BeanRegistrar {

    /** The bean holding every pool's runtime. */
    public static final String RUNTIMES_BEAN = "hotsparePoolRuntimes";

    /** Prefix of each pool's controller bean name. */
    public static final String CONTROLLER_BEAN_PREFIX = HotspareProperties.PREFIX + ".pools.";

    /** Spring instantiates registrars itself. */
    public PoolRegistrar() {
    }

    @Override
    public void register(BeanRegistry registry, Environment env) {
        registry.registerBean(RUNTIMES_BEAN, PoolRuntimes.class, spec -> spec
                .description("hotspare pools: one controller per hotspare.pools entry, started with the context")
                .supplier(PoolRegistrar::runtimes));
        for (String pool : poolNames(env)) {
            registry.registerBean(CONTROLLER_BEAN_PREFIX + pool, PoolController.class, spec -> spec
                    .description("the controller of hotspare pool '" + pool + "'")
                    .supplier(context -> context.bean(RUNTIMES_BEAN, PoolRuntimes.class).entry(pool).controller()));
        }
    }

    /**
     * The keys under {@code hotspare.pools}.
     *
     * @return pool names, in the order the sources list them
     */
    static Set<String> poolNames(Environment env) {
        return Binder.get(env).bind(HotspareProperties.PREFIX + ".pools", Bindable.mapOf(String.class, Object.class))
                .map(Map::keySet).orElse(Set.of());
    }

    private static PoolRuntimes runtimes(BeanRegistry.SupplierContext context) {
        HotspareProperties properties = context.bean(HotspareProperties.class);
        Map<String, PoolSpec> specs = PoolSpecs.read(properties.getPools());
        List<KpiListener> kpis = context.beanProvider(KpiListener.class).orderedStream().toList();
        List<HotsparePoolCustomizer> customizers = context.beanProvider(HotsparePoolCustomizer.class).orderedStream().toList();
        return new PoolRuntimes(specs, context.bean(Backend.class),
                Optional.ofNullable(context.beanProvider(ClaimStore.class).getIfUnique()),
                Optional.ofNullable(context.beanProvider(MemberDriver.class).getIfUnique()),
                context.bean(TaskScheduler.class), properties.getResyncPeriod(), properties.getPassSpacing(),
                kpis.isEmpty() ? KpiListener.NONE : KpiListener.all(kpis), customizers,
                context.bean(HotspareOwnership.class).member());
    }
}
