package dev.hotspare.spring;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.kubernetes.CustomResourceMemberDriver;
import dev.hotspare.kubernetes.KubernetesLockStore;
import dev.hotspare.kubernetes.PodMemberDriver;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.postgres.PostgresClaimStore;
import dev.hotspare.postgres.PostgresSchedulerStore;
import dev.hotspare.redis.RedisRoomStatusStore;
import dev.hotspare.spring.internal.Backend;
import dev.hotspare.spring.internal.KubernetesBackend;
import dev.hotspare.spring.internal.PoolRegistrar;
import dev.hotspare.spring.internal.PoolRuntimes;
import dev.hotspare.spring.internal.PostgresBackend;
import dev.hotspare.spring.internal.RedisBackend;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.testkit.servers.TestRedis;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each store choice on its real server (embedded PostgreSQL, embedded Redis, the Kubernetes mock API server):
 * what it gives pools and the fleet, and what it refuses.
 */
class StoresTest {

    @RegisterExtension
    static final MockKubernetes KUBE = new MockKubernetes();

    static final ResourceDefinitionContext CLUSTER_DEPLOYMENTS = new ResourceDefinitionContext.Builder()
            .withGroup("hive.openshift.io").withVersion("v1").withKind("ClusterDeployment")
            .withPlural("clusterdeployments").withNamespaced(true).build();

    @BeforeAll
    static void clusterDeploymentsAreKnown() {
        KUBE.server.expectCustomResource(new CustomResourceDefinitionContext.Builder().withGroup("hive.openshift.io")
                .withVersion("v1").withKind("ClusterDeployment").withPlural("clusterdeployments").withScope("Namespaced").build());
    }

    private static ApplicationContextRunner postgres(String schema) {
        return Contexts.withSharedBean(Contexts.runner(), DataSource.class, TestPostgres.dataSource())
                .withPropertyValues("hotspare.store=postgres", "hotspare.postgres.schema=" + schema);
    }

    private static ApplicationContextRunner kubernetes(String namespace) {
        return Contexts.withSharedBean(Contexts.runner(), KubernetesClient.class, KUBE.client)
                .withPropertyValues("hotspare.store=kubernetes", "hotspare.kubernetes.namespace=" + namespace);
    }

    @Test
    void postgresKeepsPoolClaimsInTheApplicationsDataSourceInItsOwnMigratedSchema() {
        String schema = Contexts.unique("spring_");
        postgres(schema).withPropertyValues("hotspare.pools.ci.size=1").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Backend.class)).isInstanceOf(PostgresBackend.class);
            PoolRuntimes.Entry ci = context.getBean(PoolRegistrar.RUNTIMES_BEAN, PoolRuntimes.class).entry("ci");
            assertThat(ci.claims()).isInstanceOf(PostgresClaimStore.class);
            assertThat(ci.driver()).isInstanceOf(InMemoryMemberDriver.class);
            ClaimHandle claim = context.getBean("hotspare.pools.ci", PoolController.class).claim("pr-1");
            Member member = claim.member().get(30, TimeUnit.SECONDS);
            ClaimStore stored = new PostgresClaimStore(TestPostgres.dataSource(), schema);
            assertThat(stored.find("ci", "pr-1")).hasValueSatisfying(c -> assertThat(c.assignedMember()).hasValue(member.id()));
        });
    }

    @Test
    void postgresRefusesASchemaNameThatIsNoSqlIdentifier() {
        postgres("Not-A-Schema").run(context -> assertThat(Contexts.problems(context)).containsExactly(
                "hotspare.postgres.schema: bad value 'Not-A-Schema': must be a lower-case SQL identifier of at most 48 characters"));
    }

    @Test
    void postgresGivesTheFleetItsSchedulerStore() {
        postgres(Contexts.unique("spring_")).withPropertyValues("hotspare.fleet.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Fleet.class).schedulerStore()).isInstanceOf(PostgresSchedulerStore.class);
        });
    }

    @Test
    void redisCarriesTheFleetsRoomStatusesOnTheApplicationsClient() {
        try (TestRedis.Client redis = TestRedis.Client.create(TestRedis.uri())) {
            Contexts.withSharedBean(Contexts.runner(), RedisClient.class, redis.client())
                    .withPropertyValues("hotspare.store=redis", "hotspare.redis.key-prefix=" + Contexts.unique("spring-"),
                            "hotspare.fleet.enabled=true").run(context -> {
                        assertThat(context).hasNotFailed();
                        assertThat(context.getBean(Backend.class)).isInstanceOf(RedisBackend.class);
                        assertThat(context.getBean(Fleet.class).roomStatusStore()).isInstanceOf(RedisRoomStatusStore.class);
                        assertThat(context.getBean(Fleet.class).schedulerStore()).isInstanceOf(InMemorySchedulerStore.class);
                    });
        }
    }

    @Test
    void redisRefusesPoolsBecauseItKeepsNoClaimsUnlessTheApplicationBringsAClaimStore() {
        try (TestRedis.Client redis = TestRedis.Client.create(TestRedis.uri())) {
            ApplicationContextRunner runner = Contexts.withSharedBean(Contexts.runner(), RedisClient.class, redis.client())
                    .withPropertyValues("hotspare.store=redis", "hotspare.pools.ci.size=1");
            runner.run(context -> assertThat(Contexts.problems(context)).containsExactly("hotspare.store: bad value 'redis':"
                    + " Redis keeps no pool claims (hotspare-spi-redis has lock, room status and usage history stores only);"
                    + " for pools use hotspare.store=postgres or memory, or define a ClaimStore bean"));
            runner.withBean(ClaimStore.class, InMemoryClaimStore::new).run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBean(PoolRegistrar.RUNTIMES_BEAN, PoolRuntimes.class).entry("ci").claims())
                        .isSameAs(context.getBean(ClaimStore.class));
            });
        }
    }

    @Test
    void redisWithABadKeyPrefixNamesTheProperty() {
        try (TestRedis.Client redis = TestRedis.Client.create(TestRedis.uri())) {
            Contexts.withSharedBean(Contexts.runner(), RedisClient.class, redis.client())
                    .withPropertyValues("hotspare.store=redis", "hotspare.redis.key-prefix=Bad Prefix").run(context ->
                            assertThat(Contexts.problems(context)).singleElement().asString()
                                    .startsWith("hotspare.redis.key-prefix: bad value 'Bad Prefix': must be a DNS-1123 label"));
        }
    }

    @Test
    void kubernetesKeepsPoolMembersAsCustomResourcesCopiedFromTheTemplate() {
        String namespace = Contexts.unique("pools-");
        kubernetes(namespace).withPropertyValues("hotspare.kubernetes.members.templates.v1=classpath:cluster-v1.yaml",
                "hotspare.pools.ci.size=2").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Backend.class)).isInstanceOf(KubernetesBackend.class);
            PoolRuntimes.Entry ci = context.getBean(PoolRegistrar.RUNTIMES_BEAN, PoolRuntimes.class).entry("ci");
            assertThat(ci.driver()).isInstanceOf(CustomResourceMemberDriver.class);
            assertThat(ci.claims()).isInstanceOf(InMemoryClaimStore.class);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(KUBE.fixture
                    .genericKubernetesResources(CLUSTER_DEPLOYMENTS).inNamespace(namespace).list().getItems())
                    .hasSize(2).allSatisfy(cd -> {
                        assertThat(cd.getMetadata().getLabels()).containsEntry("hotspare.dev/pool", "ci");
                        assertThat(cd.<String>get("spec", "platform", "aws", "region")).isEqualTo("eu-west-1");
                    }));
        });
    }

    @Test
    void kubernetesNeedsATemplateForEveryPoolsTemplateVersionAndReadableTemplates() {
        kubernetes("pools").withPropertyValues("hotspare.kubernetes.members.templates.v1=classpath:cluster-v1.yaml",
                "hotspare.pools.ci.size=1", "hotspare.pools.ci.template-version=v2").run(context ->
                assertThat(Contexts.problems(context)).containsExactly("hotspare.kubernetes.members.templates.v2: bad value"
                        + " '<missing>': pool 'ci' has template-version v2; give the file its members are copied from (known: [v1])"));
        kubernetes("pools").withPropertyValues("hotspare.kubernetes.members.templates.v1=classpath:no-such-file.yaml",
                "hotspare.kubernetes.members.templates.v2=classpath:broken-template.yaml").run(context ->
                assertThat(Contexts.problems(context)).satisfiesExactly(
                        v1 -> assertThat(v1).startsWith("hotspare.kubernetes.members.templates.v1: bad value 'class path resource"
                                + " [no-such-file.yaml]': cannot read it: "),
                        v2 -> assertThat(v2).startsWith("hotspare.kubernetes.members.templates.v2: bad value 'class path resource"
                                + " [broken-template.yaml]': not a Kubernetes object in YAML or JSON: ")));
    }

    @Test
    void kubernetesGivesTheFleetRoomPodsAndLeaseLocks() {
        kubernetes(Contexts.unique("fleet-")).withPropertyValues("hotspare.fleet.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            Fleet fleet = context.getBean(Fleet.class);
            assertThat(fleet.memberDriver()).isInstanceOf(PodMemberDriver.class);
            assertThat(fleet.locks()).extracting("store").isInstanceOf(KubernetesLockStore.class);
        });
    }
}
