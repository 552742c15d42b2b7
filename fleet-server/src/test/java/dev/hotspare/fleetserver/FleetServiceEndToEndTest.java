package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import tools.jackson.databind.JsonNode;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.micrometer.KpiSummary;
import dev.hotspare.micrometer.MicrometerKpis;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.testkit.servers.TestRedis;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole system as deployed: two fleet services (two workers) on one embedded Redis, one embedded
 * PostgreSQL and the fabric8 mock API server in CRUD mode, driven over HTTP while simulated rooms ping.
 * create → rooms appear as pods → rooms ping ready, then occupied → the autoscaler scales up once → image
 * update replaces rooms in maxSurge chunks → roll back → delete. Real time, bounded by Awaitility; every
 * period is shortened through the builder.
 */
class FleetServiceEndToEndTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final String scheduler = "pong-" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
    /** The mock API server; after the class, every request the services sent must be covered by docs/kubernetes-rbac.yaml. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(Path.of("..", "docs", "kubernetes-rbac.yaml"));

    /** Each instance's KPIs: what one worker did the other must not have done too. */
    private final SimpleMeterRegistry firstMeters = new SimpleMeterRegistry();
    private final SimpleMeterRegistry secondMeters = new SimpleMeterRegistry();
    private FleetService first;
    private FleetService second;
    private Http http;
    private Http httpToSecond;
    private SimulatedRooms rooms;

    private String config(String image) {
        return """
                name: %s
                game: pong
                image: %s
                ports:
                  - containerPort: 7777
                    protocol: UDP
                    name: game
                autoscaling:
                  min: 4
                  max: 12
                  up:
                    metricsTrigger:
                      - type: room
                        usage: 50
                        threshold: 50
                        time: 1
                    cooldown: 0
                """.formatted(scheduler, image);
    }

    @BeforeEach
    void start() {
        String schema = "hs_test_fleet_" + scheduler.substring(5);
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(
                Option.PORT, "0", Option.REDIS_URI, TestRedis.uri(), Option.JDBC_URL, TestPostgres.jdbcUrl(),
                Option.JDBC_SCHEMA, schema, Option.KUBERNETES, "true", Option.INSECURE_NO_AUTH, "true"), Map.of());
        assertThat(settings.describeStores())
                .isEqualTo("schedulers=postgres locks=redis room-statuses=redis usage-history=redis rooms=kubernetes ownership=on");
        Consumer<FleetService.Builder> fast = builder -> builder
                .autoscaler(Autoscaler.builder().settings(new AutoscalerSettings(Duration.ofMillis(300), 300)).build())
                .fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(200)).pollInterval(Duration.ofMillis(100))
                .lockTtl(Duration.ofSeconds(5)).lockWait(Duration.ofSeconds(20)).replaceTimeout(Duration.ofSeconds(60)).build());
        first = settings.open(FleetServiceEndToEndTest::newClient, fast.andThen(b -> b.meterRegistry(firstMeters))).start();
        second = settings.open(FleetServiceEndToEndTest::newClient, fast.andThen(b -> b.meterRegistry(secondMeters))).start();
        http = new Http(first.port());
        httpToSecond = new Http(second.port());
        rooms = new SimulatedRooms(kube.fixture, scheduler, http);
    }

    @AfterEach
    void stop() {
        rooms.close();
        first.close();
        second.close();
    }

    @Test
    void aSchedulerLivesItsWholeLifeOnRealStoresWithTwoWorkers() {
        // Healthy: both services reach Redis and PostgreSQL.
        assertThat(http.get("/healthcheck").body().toString()).isEqualTo("{\"healthy\":true}");
        assertThat(httpToSecond.get("/healthcheck").status()).isEqualTo(200);

        // Create: 201, then min rooms appear as pods, once (two workers, one creation).
        Http.Answer created = http.post("/scheduler", config("pong:1"));
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        assertThat(created.body().toString()).isEqualTo("{\"success\":true}");
        await().atMost(PATIENCE).until(() -> roomsAt("roomsAtReady") == 4 && rooms.allPinged());
        JsonNode status = httpToSecond.get("/scheduler/" + scheduler).body();
        assertThat(status.path("state").asString()).isEqualTo("in-sync");
        assertThat(status.path("game").asString()).isEqualTo("pong");
        assertThat(rooms.mostPods()).as("two workers created the min rooms once").isEqualTo(4);
        // The two instances divide the schedulers: each sees both, and exactly one of them holds this scheduler.
        await().atMost(PATIENCE).untilAsserted(() -> {
            JsonNode one = http.get("/ownership").body();
            JsonNode two = httpToSecond.get("/ownership").body();
            assertThat(one.path("enabled").asBoolean()).isTrue();
            assertThat(one.path("liveInstances")).hasSize(2);
            assertThat(two.path("liveInstances")).hasSize(2);
            long holders = java.util.stream.Stream.of(one, two).filter(view -> java.util.stream.StreamSupport.stream(
                    view.path("held").path("scheduler").spliterator(), false).anyMatch(s -> s.asString().equals(scheduler))).count();
            assertThat(holders).as("%s / %s", one, two).isEqualTo(1);
        });
        assertThat(versions()).containsOnly("v1.0");
        List<String> pods = rooms.podNames();
        assertThat(http.get("/scheduler/" + scheduler + "/rooms?limit=10").body().path("rooms"))
                .extracting(JsonNode::asText).containsExactlyElementsOf(pods);
        Http.Answer address = http.get("/scheduler/" + scheduler + "/rooms/" + pods.get(0) + "/address");
        assertThat(address.status()).isEqualTo(200);
        assertThat(address.body().toString()).as("not on a node yet").isEqualTo("{\"host\":\"\",\"ports\":[]}");
        placeOnNode(pods.get(0));
        await().atMost(PATIENCE).until(() -> http.get("/scheduler/" + scheduler + "/rooms/" + pods.get(0) + "/address").body()
                .toString().equals("{\"host\":\"203.0.113.7\",\"ports\":[{\"port\":30777,\"name\":\"game\"}]}"));

        // Three matches start: occupancy 75% > 50%, so the autoscaler adds round((300 - 200) / 50) = 2 rooms, once.
        for (String room : pods.subList(0, 3)) {
            assertThat(http.put("/scheduler/" + scheduler + "/rooms/" + room + "/status",
                    "{\"timestamp\":" + Clock.systemUTC().instant().getEpochSecond() + ",\"status\":\"occupied\"}").status()).isEqualTo(200);
        }
        await().atMost(PATIENCE).until(() -> rooms.pods().size() == 6 && rooms.allPinged());
        await().during(Duration.ofSeconds(2)).atMost(PATIENCE).until(() -> rooms.pods().size() == 6);
        assertThat(rooms.mostPods()).as("one scale-up, not one per worker").isEqualTo(6);
        JsonNode scaled = http.get("/scheduler/" + scheduler).body();
        assertThat(scaled.path("roomsAtOccupied").asInt()).isEqualTo(3);
        assertThat(scaled.path("roomsAtReady").asInt()).isEqualTo(3);
        assertThat(scaled.path("lastScaleOpAt").asLong()).isPositive();
        // The KPIs agree: over both instances, two scale-ups (min rooms, then the autoscaler) adding 4 + 2 rooms.
        await().atMost(PATIENCE).until(() -> scaleUps(MicrometerKpis.SCALE_MEMBERS) == 6);
        assertThat(scaleUps(MicrometerKpis.SCALE_OPERATIONS)).isEqualTo(2);
        await().atMost(PATIENCE).untilAsserted(() -> {
            // The same figures as data: scale-up operations over both instances, rooms occupied on either.
            List<JsonNode> meters = new java.util.ArrayList<>();
            http.get("/kpis").body().path("meters").forEach(meters::add);
            httpToSecond.get("/kpis").body().path("meters").forEach(meters::add);
            assertThat(meters.stream().filter(m -> m.path("name").asString().equals(MicrometerKpis.SCALE_OPERATIONS)
                    && m.path("tags").path("pool").asString().equals(scheduler) && m.path("tags").path("operation").asString().equals("scale-up"))
                    .mapToDouble(m -> m.path("values").path("count").asDouble()).sum()).isEqualTo(2.0);
            assertThat(meters).anyMatch(m -> m.path("name").asString().equals(MicrometerKpis.MEMBERS)
                    && m.path("tags").path("pool").asString().equals(scheduler) && m.path("tags").path("state").asString().equals("occupied") && m.path("values").path("value").asDouble() == 3.0);
        });

        // The matches end, then the image changes: a major version, rooms replaced 25% of 6 = 2 at a time.
        for (String room : pods.subList(0, 3)) {
            http.put("/scheduler/" + scheduler + "/rooms/" + room + "/status",
                    "{\"timestamp\":" + Clock.systemUTC().instant().getEpochSecond() + ",\"status\":\"ready\"}");
        }
        await().atMost(PATIENCE).until(() -> roomsAt("roomsAtReady") == 6);
        rooms.holdPods(true);
        CompletableFuture<Http.Answer> update = CompletableFuture.supplyAsync(
                () -> http.put("/scheduler/" + scheduler + "?maxsurge=25&wait=true", config("pong:2")));
        for (int chunk = 1; chunk <= 3; chunk++) {
            int replaced = chunk * 2;
            // Old rooms go as new ones come: 6 rooms, 2 of them new and starting.
            await().atMost(PATIENCE).until(() -> countAt("v2.0") == replaced && rooms.unready("v2.0") == 2
                    && rooms.pods().size() == 6);
            assertThat(update).as("the update answers once every room is replaced").isNotDone();
            if (chunk == 1) {
                // The update holds CONFIG and DOWNSCALE in Redis: the other instance sees them and is refused.
                JsonNode held = httpToSecond.get("/scheduler/" + scheduler + "/locks").body().path("locks");
                assertThat(held).extracting(l -> l.path("kind").asString()).contains("config", "downscale");
                assertThat(held).allSatisfy(l -> assertThat(l.path("fencingToken").asLong()).isPositive());
                Http.Answer refused = httpToSecond.put("/scheduler/" + scheduler + "/image", "{\"image\":\"pong:3\"}");
                assertThat(refused.status()).as(refused.raw()).isEqualTo(409);
                assertThat(refused.body().path("code").asString()).isEqualTo("LOCKED");
            }
            rooms.releasePending();
        }
        rooms.holdPods(false);
        Http.Answer updated = update.join();
        assertThat(updated.status()).as(updated.raw()).isEqualTo(200);
        assertThat(updated.body().path("success").asBoolean()).isTrue();
        assertThat(updated.body().path("status").asString()).isEqualTo("deployed");
        assertThat(rooms.mostUnready("v2.0")).as("never more than maxSurge new rooms starting at once").isEqualTo(2);
        await().atMost(PATIENCE).until(() -> versions().equals(Set.of("v2.0")) && rooms.pods().size() == 6);
        assertThat(images()).containsOnly("pong:2");
        assertThat(http.get("/scheduler/" + scheduler + "/releases").body().path("releases"))
                .extracting(r -> r.path("version").asString()).containsExactly("v1.0", "v2.0");

        // Roll back to v1.0: a new major (v3.0) with v1.0's config; every room replaced again.
        Http.Answer rollback = http.put("/scheduler/" + scheduler + "/rollback?wait=true", "{\"version\":\"v1.0\"}");
        assertThat(rollback.status()).as(rollback.raw()).isEqualTo(200);
        assertThat(rollback.body().path("version").asString()).isEqualTo("v3.0");
        await().atMost(PATIENCE).untilAsserted(() -> {
            assertThat(versions()).as("pods " + rooms.pods().size() + ", listed " + kube.fixture.pods().inNamespace(scheduler).list()
                            .getItems().stream().map(p -> p.getMetadata().getName() + ":" + p.getMetadata().getLabels()
                                    .get(SimulatedRooms.VERSION_LABEL) + ":" + p.getMetadata().getDeletionTimestamp()).toList()
                            + ", status " + http.get("/scheduler/" + scheduler).raw() + ", first " + KpiSummary.lines(firstMeters)
                            + ", second " + KpiSummary.lines(secondMeters))
                    .containsExactly("v3.0");
            assertThat(rooms.pods()).as("first " + KpiSummary.lines(firstMeters) + ", second " + KpiSummary.lines(secondMeters))
                    .hasSize(6);
        });
        assertThat(images()).containsOnly("pong:1");
        JsonNode diff = httpToSecond.put("/scheduler/" + scheduler + "/diff", "").body();
        assertThat(diff.path("version1").asString()).isEqualTo("v3.0");
        assertThat(diff.path("version2").asString()).isEqualTo("v2.0");
        assertThat(diff.path("diff").asString()).contains("image").contains("pong:2").contains("pong:1");
        assertThat(httpToSecond.get("/scheduler/" + scheduler + "/config?version=v2.0").body().path("yaml").asString())
                .isEqualTo(config("pong:2"));
        Http.Answer locks = http.get("/scheduler/" + scheduler + "/locks");
        assertThat(locks.status()).isEqualTo(200);
        assertThat(locks.body().path("locks").isArray()).isTrue();

        // Delete: the rooms go, then the scheduler.
        Http.Answer deleted = http.delete("/scheduler/" + scheduler);
        assertThat(deleted.status()).as(deleted.raw()).isEqualTo(200);
        await().atMost(PATIENCE).until(() -> rooms.pods().isEmpty());
        assertThat(http.get("/scheduler/" + scheduler).status()).isEqualTo(404);
        assertThat(httpToSecond.get("/scheduler/" + scheduler).body().path("code").asString()).isEqualTo("SCHEDULER_NOT_FOUND");
    }

    /** Plays the Kubernetes scheduler and service controller: the room's pod lands on a node, its port gets a node port. */
    private void placeOnNode(String room) {
        var fixture = kube.fixture;
        if (fixture.nodes().withName("node-1").get() == null) {
            fixture.nodes().resource(new io.fabric8.kubernetes.api.model.NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
                    .withNewStatus().addNewAddress().withType("InternalIP").withAddress("10.0.0.5").endAddress()
                    .addNewAddress().withType("ExternalIP").withAddress("203.0.113.7").endAddress().endStatus().build()).create();
        }
        Pod pod = fixture.pods().inNamespace(scheduler).withName(room).get();
        fixture.pods().inNamespace(scheduler).resource(new io.fabric8.kubernetes.api.model.PodBuilder(pod).editSpec()
                .withNodeName("node-1").endSpec().build()).update();
        var service = fixture.services().inNamespace(scheduler).withName(room).get();
        var withPort = new io.fabric8.kubernetes.api.model.ServiceBuilder(service);
        withPort.editSpec().editMatchingPort(p -> "game".equals(p.getName())).withNodePort(30777).endPort().endSpec();
        fixture.services().inNamespace(scheduler).resource(withPort.build()).update();
    }

    /** Each service gets a client of its own (it closes it); their requests are the ones the RBAC check covers. */
    private static KubernetesClient newClient() {
        return kube.server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory()));
    }

    /** A scale-up counter of this scheduler, summed over both instances. */
    private double scaleUps(String meter) {
        double sum = 0;
        for (SimpleMeterRegistry meters : List.of(firstMeters, secondMeters)) {
            sum += meters.find(meter).tags("pool", scheduler, "operation", "scale-up").counters().stream()
                    .mapToDouble(io.micrometer.core.instrument.Counter::count).sum();
        }
        return sum;
    }

    private int roomsAt(String field) {
        return http.get("/scheduler/" + scheduler).body().path(field).asInt();
    }

    private long countAt(String version) {
        return rooms.pods().stream().filter(p -> version.equals(p.getMetadata().getLabels().get(SimulatedRooms.VERSION_LABEL))).count();
    }

    private Set<String> versions() {
        return rooms.pods().stream().map(p -> p.getMetadata().getLabels().get(SimulatedRooms.VERSION_LABEL)).collect(Collectors.toSet());
    }

    private Set<String> images() {
        return rooms.pods().stream().map((Pod p) -> p.getSpec().getContainers().get(0).getImage()).collect(Collectors.toSet());
    }
}
