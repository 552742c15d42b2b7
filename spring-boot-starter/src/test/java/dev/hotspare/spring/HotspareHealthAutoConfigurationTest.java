package dev.hotspare.spring;

import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.testkit.servers.TestRedis;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Health: the store's and each pool's indicator, DOWN when the store does not answer, off when Boot's health is absent. */
class HotspareHealthAutoConfigurationTest {

    private static CompositeHealthContributor hotspare(AssertableApplicationContext context) {
        return context.getBean("hotspareHealthContributor", CompositeHealthContributor.class);
    }

    private static Health health(CompositeHealthContributor composite, String... path) {
        HealthContributor contributor = composite;
        for (String name : path) {
            contributor = ((CompositeHealthContributor) contributor).getContributor(name);
        }
        return ((HealthIndicator) contributor).health();
    }

    @Test
    void theMemoryStoreIsUpAndEachPoolShowsHotWarmClaimedAndPending() {
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=2", "hotspare.pools.ci.running-count=1",
                "hotspare.pools.idle.size=0").run(context -> {
            assertThat(context).hasNotFailed();
            Health store = health(hotspare(context), "store");
            assertThat(store.getStatus()).isEqualTo(Status.UP);
            assertThat(store.getDetails()).containsEntry("store", "memory");
            PoolController ci = context.getBean("hotspare.pools.ci", PoolController.class);
            ci.claim("pr-1").member().get(30, TimeUnit.SECONDS);
            // The claimed member is replaced, the hot set refilled: 1 hot, 1 warm, 1 claimed once the pool settles.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(health(hotspare(context), "pools", "ci").getDetails())
                    .containsEntry("hot", 1).containsEntry("warm", 1).containsEntry("claimed", 1).containsEntry("pending", 0)
                    .containsEntry("size", 2).containsEntry("runningCount", 1));
            assertThat(health(hotspare(context), "pools", "idle").getDetails()).containsEntry("hot", 0).containsEntry("pending", 0);
        });
    }

    @Test
    void pendingClaimsAreListedOldestFirstWithTheirWaitAndReason() {
        // size 0 and maxSize 0: nothing can ever serve the claims, so they stay pending.
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=0", "hotspare.pools.ci.max-size=0").run(context -> {
            PoolController ci = context.getBean("hotspare.pools.ci", PoolController.class);
            ci.claim("first");
            ci.claim("second");
            ci.reconcile();
            Health health = health(hotspare(context), "pools", "ci");
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("pending", 2);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> listed = (List<Map<String, Object>>) health.getDetails().get("pendingClaims");
            assertThat(listed).extracting(m -> m.get("name")).containsExactly("first", "second");
            assertThat(listed).allSatisfy(m -> assertThat(m).containsKey("waiting")
                    .hasEntrySatisfying("reason", reason -> assertThat((String) reason).contains("maxSize")));
        });
    }

    @Test
    void aPostgresStoreThatDoesNotAnswerIsDownAndSoAreItsPools() {
        // Port 1 on the loopback: nothing listens, so every connection is refused at once.
        DataSource nowhere = TestPostgres.pool("jdbc:postgresql://127.0.0.1:1/nowhere", 1);
        Contexts.withSharedBean(Contexts.runner(), DataSource.class, nowhere).withPropertyValues("hotspare.store=postgres",
                "hotspare.postgres.migrate=false", "hotspare.pools.ci.size=1").run(context -> {
            assertThat(context).hasNotFailed();
            Health store = health(hotspare(context), "store");
            assertThat(store.getStatus()).isEqualTo(Status.DOWN);
            assertThat(store.getDetails()).containsEntry("store", "postgres").containsKey("error");
            Health pool = health(hotspare(context), "pools", "ci");
            assertThat(pool.getStatus()).isEqualTo(Status.DOWN);
            assertThat(String.valueOf(pool.getDetails().get("error"))).doesNotContain("Exception");
        });
    }

    @Test
    void aReachablePostgresStoreIsUp() {
        Contexts.withSharedBean(Contexts.runner(), DataSource.class, TestPostgres.dataSource())
                .withPropertyValues("hotspare.store=postgres", "hotspare.postgres.schema=" + Contexts.unique("spring_")).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(health(hotspare(context), "store").getStatus()).isEqualTo(Status.UP);
                });
    }

    @Test
    void aRedisStoreIsUpWhileItsServerRunsAndDownOnceItStops() {
        try (TestRedis.Server server = TestRedis.Server.start(false); TestRedis.Client redis = TestRedis.Client.create(server.uri())) {
            Contexts.withSharedBean(Contexts.runner(), RedisClient.class, redis.client())
                    .withPropertyValues("hotspare.store=redis", "hotspare.redis.health-timeout=1s").run(context -> {
                        assertThat(context).hasNotFailed();
                        Health up = health(hotspare(context), "store");
                        assertThat(up.getStatus()).isEqualTo(Status.UP);
                        assertThat(up.getDetails()).containsEntry("store", "redis").containsEntry("ping", "PONG");
                        server.stop();
                        Health down = health(hotspare(context), "store");
                        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                        assertThat(down.getDetails()).containsKey("error");
                    });
        }
    }

    @Test
    void aKubernetesApiServerThatDoesNotAnswerIsDownWithTheCause() {
        try (KubernetesClient nowhere = new KubernetesClientBuilder().withConfig(new io.fabric8.kubernetes.client.ConfigBuilder()
                .withMasterUrl("http://127.0.0.1:1").withNamespace("default").withRequestTimeout(2_000)
                .withConnectionTimeout(2_000).withRequestRetryBackoffLimit(0).build()).build()) {
            Contexts.withSharedBean(Contexts.runner(), KubernetesClient.class, nowhere)
                    .withPropertyValues("hotspare.store=kubernetes").run(context -> {
                        assertThat(context).hasNotFailed();
                        Health down = health(hotspare(context), "store");
                        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                        assertThat(String.valueOf(down.getDetails().get("error"))).contains("connection refused")
                                .doesNotContain("java.");
                    });
        }
    }

    @Test
    void theIndicatorsCanBeSwitchedOffAndAreAbsentWithoutSpringBootsHealthModule() {
        Contexts.runner().withPropertyValues("management.health.hotspare.enabled=false").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean("hotspareHealthContributor"));
        Contexts.runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class)).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean("hotspareHealthContributor"));
    }
}
