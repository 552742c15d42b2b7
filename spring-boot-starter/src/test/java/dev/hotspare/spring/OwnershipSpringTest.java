package dev.hotspare.spring;

import dev.hotspare.fleet.runtime.Fleet;
import dev.hotspare.ownership.runtime.OwnershipMember;
import dev.hotspare.spring.internal.HotspareOwnership;
import dev.hotspare.spring.internal.HotspareOwnershipEndpoint;
import dev.hotspare.testkit.servers.TestPostgres;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Applications that share a PostgreSQL store divide the pools (and the fleet's schedulers) between them. */
class OwnershipSpringTest {

    private static final List<String> POOLS = IntStream.range(0, 10).mapToObj(i -> "ci-" + i).toList();

    private static ApplicationContextRunner app(String schema, String instance) {
        List<String> properties = new ArrayList<>(List.of("hotspare.store=postgres", "hotspare.postgres.schema=" + schema,
                "hotspare.ownership.instance-id=" + instance, "hotspare.ownership.lease-ttl=5s",
                "hotspare.ownership.heartbeat=1s", "hotspare.fleet.enabled=true"));
        POOLS.forEach(pool -> properties.add("hotspare.pools." + pool + ".size=1"));
        return Contexts.withSharedBean(Contexts.runner(), DataSource.class, TestPostgres.dataSource())
                .withPropertyValues(properties.toArray(String[]::new));
    }

    private static OwnershipMember member(ConfigurableApplicationContext context) {
        return context.getBean(HotspareOwnership.class).member().orElseThrow();
    }

    private static List<String> heldPools(ConfigurableApplicationContext context) {
        return member(context).tracked("pool").orElseThrow().owned();
    }

    @Test
    void twoApplicationsOnOneDatabaseRunEachPoolInExactlyOneOfThem() {
        String schema = Contexts.unique("own_");
        app(schema, "app-a").run(a -> app(schema, "app-b").run(b -> {
            assertThat(a).hasNotFailed();
            assertThat(b).hasNotFailed();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                List<String> all = new ArrayList<>(heldPools(a.getSourceApplicationContext()));
                all.addAll(heldPools(b.getSourceApplicationContext()));
                assertThat(all).containsExactlyInAnyOrderElementsOf(POOLS);
                assertThat(heldPools(a.getSourceApplicationContext())).isNotEmpty();
                assertThat(heldPools(b.getSourceApplicationContext())).isNotEmpty();
            });
            // The fleet divides its schedulers through the same member.
            assertThat(a.getBean(Fleet.class).ownership()).containsSame(member(a.getSourceApplicationContext()));
            assertThat(member(a.getSourceApplicationContext()).view().liveMembers()).containsExactly("app-a", "app-b");
            // The actuator endpoint shows the same division.
            Map<String, Object> shown = a.getBean(HotspareOwnershipEndpoint.class).ownership();
            assertThat(shown).containsEntry("enabled", true).containsEntry("instanceId", "app-a")
                    .containsEntry("liveInstances", List.of("app-a", "app-b"));
            b.close();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(heldPools(a.getSourceApplicationContext())).containsExactlyInAnyOrderElementsOf(POOLS));
        }));
    }

    @Test
    void inMemoryAnApplicationIsAloneAndDividesNothing() {
        Contexts.runner().withPropertyValues("hotspare.pools.ci.size=1").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(HotspareOwnership.class).member()).isEmpty();
            assertThat(context.getBean(HotspareOwnershipEndpoint.class).ownership()).containsEntry("enabled", false);
        });
    }

    @Test
    void aBadOwnershipSettingIsNamedWithItsValue() {
        Contexts.withSharedBean(Contexts.runner(), DataSource.class, TestPostgres.dataSource())
                .withPropertyValues("hotspare.store=postgres", "hotspare.postgres.schema=" + Contexts.unique("own_"),
                        "hotspare.ownership.heartbeat=10s", "hotspare.ownership.lease-ttl=15s", "hotspare.ownership.instance-id=Bad_Id")
                .run(context -> assertThat(Contexts.problems(context)).anySatisfy(p -> assertThat(p)
                                .contains("hotspare.ownership.heartbeat").contains("PT10S"))
                        .anySatisfy(p -> assertThat(p).contains("hotspare.ownership.instance-id").contains("Bad_Id")));
    }

    @Test
    void theDefaultInstanceIdIsOneLabelMadeOfTheHostAndTheProcess() {
        String id = HotspareOwnership.defaultInstanceId();
        assertThat(id).matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?").contains("-" + ProcessHandle.current().pid() + "-");
    }
}
