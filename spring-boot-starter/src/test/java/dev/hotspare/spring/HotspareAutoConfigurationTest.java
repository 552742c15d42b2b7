package dev.hotspare.spring;

import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.PoolSpec.ClaimLifetime;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.spring.internal.Backend;
import dev.hotspare.spring.internal.MemoryBackend;
import dev.hotspare.spring.internal.OwnedTaskScheduler;
import dev.hotspare.spring.internal.PoolRegistrar;
import dev.hotspare.spring.internal.PoolRuntimes;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The core auto-configuration on the in-memory default: its beans, pools from properties, and its failures. */
class HotspareAutoConfigurationTest {

    @Test
    void withNoPropertiesItRunsInMemoryWithNoPoolAndNoFleet() {
        Contexts.runner().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(TaskScheduler.class).hasSingleBean(Backend.class)
                    .doesNotHaveBean(PoolController.class).doesNotHaveBean(dev.hotspare.fleet.runtime.Fleet.class);
            assertThat(context.getBean(Backend.class)).isInstanceOf(MemoryBackend.class);
            assertThat(context.getBean(TaskScheduler.class)).isInstanceOf(OwnedTaskScheduler.class);
            assertThat(context.getBean(PoolRegistrar.RUNTIMES_BEAN, PoolRuntimes.class).entries()).isEmpty();
        });
    }

    @Test
    void storeMemoryIsTheDefaultAndCanBeNamedInAnyCase() {
        Contexts.runner().withPropertyValues("hotspare.store=Memory").run(context ->
                assertThat(context.getBean(Backend.class)).isInstanceOf(MemoryBackend.class));
    }

    @Test
    void eachPoolBecomesAControllerBeanWithTheSpecItsPropertiesDescribe() {
        Contexts.runner().withPropertyValues(
                "hotspare.pools.ci.size=3",
                "hotspare.pools.ci.running-count=1",
                "hotspare.pools.ci.hibernate-after=PT2H",
                "hotspare.pools.ci.claim-lifetime.default=PT1H",
                "hotspare.pools.ci.claim-lifetime.maximum=PT4H",
                "hotspare.pools.ci.max-size=10",
                "hotspare.pools.nightly.size=1",
                "hotspare.pools.nightly.maxConcurrent=2",
                "hotspare.pools.nightly.template_version=v7").run(context -> {
            assertThat(context).hasNotFailed();
            Map<String, PoolController> controllers = context.getBeansOfType(PoolController.class);
            assertThat(controllers).containsOnlyKeys("hotspare.pools.ci", "hotspare.pools.nightly");
            assertThat(controllers.get("hotspare.pools.ci").spec()).isEqualTo(PoolSpec.builder("ci").size(3).runningCount(1)
                    .hibernateAfter(Duration.ofHours(2)).maxSize(10)
                    .claimLifetime(new ClaimLifetime(Optional.of(Duration.ofHours(1)), Optional.of(Duration.ofHours(4)))).build());
            PoolSpec nightly = controllers.get("hotspare.pools.nightly").spec();
            assertThat(nightly.maxConcurrent()).isEqualTo(OptionalInt.of(2));
            assertThat(nightly.templateVersion()).isEqualTo("v7");
            assertThat(nightly.runningCount()).isZero();
        });
    }

    @Test
    void aBadPoolPropertyFailsStartupWithThePoolSpecsOwnMessageAtTheProperty() {
        String specMessage = assertThatThrownBy(() -> PoolSpec.builder("ci").size(2).runningCount(-1).build())
                .isInstanceOf(ValidationException.class).actual().getMessage();
        assertThat(specMessage).isEqualTo("runningCount: bad value '-1': must be >= 0");
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=2", "hotspare.pools.ci.running-count=-1").run(context ->
                assertThat(Contexts.problems(context))
                        .containsExactly("hotspare.pools.ci.running-count: bad value '-1': must be >= 0"));
    }

    /** Within one pool a value of the wrong type stops the reading (as in a spec file); across pools, all are read. */
    @Test
    void everyProblemOfEveryPoolIsReportedAtOnce() {
        Contexts.runner().withPropertyValues(
                "hotspare.pools.ci.running-count=two",
                "hotspare.pools.ci.runing-count=1",
                "hotspare.pools.Big_Pool.size=1",
                "hotspare.pools.slow.size=1",
                "hotspare.pools.slow.claim-lifetime.default=forever",
                "hotspare.pools.idle.size=1",
                "hotspare.pools.idle.hibernate-after=-PT1M").run(context -> assertThat(Contexts.problems(context)).containsExactly(
                "hotspare.pools.ci.runing-count: bad value 'runing-count': unknown field; did you mean 'runningCount'?",
                "hotspare.pools.ci.running-count: bad value 'two': expected a whole number",
                "hotspare.pools.Big_Pool.name: bad value 'Big_Pool': must be a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit",
                "hotspare.pools.slow.claim-lifetime.default: bad value 'forever': expected a duration such as 500ms, 30s, 40m, 2h30m or PT40M",
                "hotspare.pools.idle.hibernate-after: bad value 'PT-1M': must be a positive duration"));
    }

    @Test
    void aPoolWithoutSizeIsReportedAsThePoolSpecReportsIt() {
        Contexts.runner().withPropertyValues("hotspare.pools.ci.running-count=1").run(context ->
                assertThat(Contexts.problems(context)).containsExactly("hotspare.pools.ci.size: bad value '<missing>': required"));
    }

    @Test
    void aNameThatDiffersFromTheKeyIsRefused() {
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=1", "hotspare.pools.ci.name=other").run(context ->
                assertThat(Contexts.problems(context)).containsExactly("hotspare.pools.ci.name: bad value 'other': the pool's"
                        + " name is its key under hotspare.pools ('ci'); omit name or make it equal"));
    }

    @Test
    void theApplicationsOwnClaimStoreMemberDriverAndSchedulerReplaceTheStoresAndAreUsedByEveryPool() {
        Contexts.runner().withUserConfiguration(OwnPorts.class).withPropertyValues("hotspare.pools.ci.size=1").run(context -> {
            assertThat(context).hasNotFailed();
            PoolRuntimes.Entry ci = context.getBean(PoolRegistrar.RUNTIMES_BEAN, PoolRuntimes.class).entry("ci");
            assertThat(ci.claims()).isSameAs(context.getBean(ClaimStore.class));
            assertThat(ci.driver()).isSameAs(context.getBean(MemberDriver.class));
            assertThat(context.getBean(TaskScheduler.class)).isInstanceOf(VirtualTimeScheduler.class);
            VirtualTimeScheduler time = context.getBean(VirtualTimeScheduler.class);
            time.advanceBy(Duration.ofSeconds(1));   // the pass the context's start scheduled
            assertThat(ci.driver().list("ci")).hasSize(1);
        });
    }

    @Test
    void poolCustomizersSeeEveryPoolsBuilderInOrder() {
        Contexts.runner().withUserConfiguration(Customizers.class)
                .withPropertyValues("hotspare.pools.a.size=1", "hotspare.pools.b.size=1").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("seen", List.class)).containsExactly("first a", "second a", "first b", "second b");
                });
    }

    @Test
    void theStartersExecutorStopsWithTheContextAndPoolsStopBeforeIt() {
        List<OwnedTaskScheduler> schedulers = new ArrayList<>();
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=1").run(context -> {
            schedulers.add((OwnedTaskScheduler) context.getBean(TaskScheduler.class));
            assertThat(context.getBean(PoolRegistrar.RUNTIMES_BEAN, PoolRuntimes.class).isRunning()).isTrue();
            assertThat(schedulers.get(0).isShutdown()).isFalse();
        });
        assertThat(schedulers.get(0).isShutdown()).isTrue();
    }

    @Test
    void thePassSpacingReachesEveryPoolsController() {
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=1", "hotspare.pass-spacing=50ms").run(context ->
                assertThat(context.getBean(PoolRegistrar.RUNTIMES_BEAN, PoolRuntimes.class).entry("ci").controller().settings().passSpacing())
                        .isEqualTo(java.time.Duration.ofMillis(50)));
    }

    @Test
    void settingsOutOfRangeNameTheirProperty() {
        Contexts.runner().withPropertyValues("hotspare.threads=0").run(context ->
                assertThat(Contexts.problems(context)).containsExactly("hotspare.threads: bad value '0': must be at least 1"));
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=1", "hotspare.resync-period=0s").run(context ->
                assertThat(Contexts.problems(context)).containsExactly("hotspare.resync-period: bad value 'PT0S': must be a positive duration"));
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=1", "hotspare.pass-spacing=-1s").run(context ->
                assertThat(Contexts.problems(context)).containsExactly("hotspare.pass-spacing: bad value 'PT-1S': must not be negative"));
        Contexts.runner().withPropertyValues("hotspare.memory.install-time=-1s", "hotspare.memory.delete-time=-2s").run(context ->
                assertThat(Contexts.problems(context)).containsExactly(
                        "hotspare.memory.install-time: bad value 'PT-1S': must not be negative",
                        "hotspare.memory.delete-time: bad value 'PT-2S': must not be negative"));
    }

    @Test
    void aStoreNamingNothingListsTheStores() {
        Contexts.runner().withPropertyValues("hotspare.store=mongo").run(context ->
                assertThat(Contexts.problems(context)).containsExactly(
                        "hotspare.store: bad value 'mongo': names no store; use one of memory, postgres, redis, kubernetes"));
    }

    @Test
    void aChosenStoreWhoseAdapterIsMissingNamesTheDependency() {
        for (String[] store : new String[][]{{"postgres", "dev.hotspare.postgres", "hotspare-spi-postgres"},
                {"redis", "dev.hotspare.redis", "hotspare-spi-redis"},
                {"kubernetes", "dev.hotspare.kubernetes", "hotspare-spi-kubernetes"}}) {
            Contexts.runner().withClassLoader(new FilteredClassLoader(store[1])).withPropertyValues("hotspare.store=" + store[0])
                    .run(context -> assertThat(Contexts.problems(context)).containsExactly("hotspare.store: bad value '" + store[0]
                            + "': needs the dev.hotspare:" + store[2] + " dependency on the class path (the starter declares"
                            + " the adapters optional: add the one you use)"));
        }
    }

    @Test
    void aChosenStoreWhoseClientBeanIsMissingNamesTheBean() {
        Contexts.runner().withPropertyValues("hotspare.store=postgres").run(context ->
                assertThat(Contexts.problems(context)).singleElement().asString()
                        .startsWith("hotspare.store: bad value 'postgres': needs a javax.sql.DataSource bean"));
        Contexts.runner().withPropertyValues("hotspare.store=redis").run(context ->
                assertThat(Contexts.problems(context)).singleElement().asString()
                        .startsWith("hotspare.store: bad value 'redis': needs an io.lettuce.core.RedisClient bean"));
        Contexts.runner().withPropertyValues("hotspare.store=kubernetes").run(context ->
                assertThat(Contexts.problems(context)).singleElement().asString()
                        .startsWith("hotspare.store: bad value 'kubernetes': needs an io.fabric8.kubernetes.client.KubernetesClient bean"));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnPorts {
        @Bean
        VirtualTimeScheduler virtualTime() {
            return TaskScheduler.virtual(Instant.parse("2026-01-01T00:00:00Z"));
        }

        @Bean
        ClaimStore ownClaims() {
            return new InMemoryClaimStore();
        }

        @Bean
        MemberDriver ownDriver(VirtualTimeScheduler time) {
            return InMemoryMemberDriver.builder(time).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {
        private final List<String> seen = new ArrayList<>();

        @Bean
        List<String> seen() {
            return seen;
        }

        @Bean
        @org.springframework.core.annotation.Order(2)
        HotsparePoolCustomizer second() {
            return (pool, builder) -> seen.add("second " + pool);
        }

        @Bean
        @org.springframework.core.annotation.Order(1)
        HotsparePoolCustomizer first() {
            return (pool, builder) -> seen.add("first " + pool);
        }
    }
}
