package dev.hotspare.spring;

import dev.hotspare.kpi.KpiListener;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.pool.runtime.PoolController;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** KPIs: a MeterBinder when Micrometer is present, bound by Spring Boot and plugged into every pool; none without it. */
class HotspareMetricsAutoConfigurationTest {

    private static ApplicationContextRunner withBootMetrics() {
        return Contexts.runner().withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class));
    }

    @Test
    void springBootBindsTheBinderAndAClaimIsRecordedUnderHotsparesMeterNames() {
        withBootMetrics().withPropertyValues("hotspare.pools.ci.size=1").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(HotspareMeterBinder.class);
            assertThat(context.getBean(HotspareMeterBinder.class).boundRegistries()).isEqualTo(1);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            PoolController ci = context.getBean("hotspare.pools.ci", PoolController.class);
            ci.claim("pr-1").member().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(registry.find(MicrometerKpis.CLAIMS_SERVED).tag("pool", "ci").counter())
                        .isNotNull().extracting(c -> c.count()).isEqualTo(1.0);
                assertThat(registry.find(MicrometerKpis.MEMBERS).tags("pool", "ci", "state", "claimed").gauge())
                        .isNotNull().extracting(g -> g.value()).isEqualTo(1.0);
            });
        });
    }

    @Test
    void theBinderRecordsInEveryRegistryItIsBoundToAndOnceInEach() {
        HotspareMeterBinder binder = new HotspareMeterBinder();
        SimpleMeterRegistry first = new SimpleMeterRegistry();
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        binder.bindTo(first);
        binder.bindTo(second);
        binder.bindTo(first);
        binder.scaled("ci", dev.hotspare.pool.PoolPlan.ScaleOperation.CREATE, 3);
        assertThat(binder.boundRegistries()).isEqualTo(2);
        for (SimpleMeterRegistry registry : new SimpleMeterRegistry[]{first, second}) {
            assertThat(registry.get(MicrometerKpis.SCALE_MEMBERS).tag("pool", "ci").counter().count()).isEqualTo(3.0);
        }
    }

    /** A method added to KpiListener must be forwarded too, or its KPI would silently vanish from Micrometer. */
    @Test
    void theBinderForwardsEveryMethodOfTheKpiListener() {
        for (Method method : KpiListener.class.getMethods()) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            assertThat(Arrays.stream(HotspareMeterBinder.class.getDeclaredMethods())
                    .anyMatch(m -> m.getName().equals(method.getName())
                            && Arrays.equals(m.getParameterTypes(), method.getParameterTypes())))
                    .as("HotspareMeterBinder forwards %s", method).isTrue();
        }
    }

    @Test
    void withoutMicrometerThereIsNoBinderAndPoolsRunWithoutKpis() {
        Contexts.runner().withClassLoader(new FilteredClassLoader(MeterBinder.class)).withPropertyValues("hotspare.pools.ci.size=1")
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(HotspareMeterBinder.class);
                    context.getBean("hotspare.pools.ci", PoolController.class).claim("pr-1").member().get(30, TimeUnit.SECONDS);
                });
        Contexts.runner().withClassLoader(new FilteredClassLoader(MicrometerKpis.class)).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(HotspareMeterBinder.class));
    }

    @Test
    void theApplicationsOwnKpiListenersArePluggedIntoEveryPoolToo() {
        java.util.List<String> served = new java.util.concurrent.CopyOnWriteArrayList<>();
        KpiListener own = new KpiListener() {
            @Override
            public void claimServed(String pool, dev.hotspare.pool.Claim.ClaimService service, Duration wait) {
                served.add(pool);
            }
        };
        Contexts.runner().withBean(KpiListener.class, () -> own).withPropertyValues("hotspare.pools.ci.size=1").run(context -> {
            context.getBean("hotspare.pools.ci", PoolController.class).claim("pr-1").member().get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(30)).until(() -> served.contains("ci"));
        });
    }
}
