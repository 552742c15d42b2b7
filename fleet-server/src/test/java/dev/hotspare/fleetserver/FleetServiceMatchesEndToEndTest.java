package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import tools.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.testkit.servers.TestRedis;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14 as deployed: two fleet services on one embedded Redis, one embedded PostgreSQL and the Kubernetes mock.
 * Rooms host four matches each; eight allocators on the two services take every slot exactly once; rooms report
 * their running matches and the roomOccupancy policy scales on them; the scheduler's webhook forwarder (a real
 * local HTTP server) gets the room and player events; a rollback's release says what it restored, from PostgreSQL.
 */
class FleetServiceMatchesEndToEndTest {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(Path.of("..", "docs", "kubernetes-rbac.yaml"));

    private final String scheduler = "mm-" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
    private final List<String> webhookBodies = new CopyOnWriteArrayList<>();
    private volatile int webhookStatus = 200;
    private HttpServer webhook;
    private FleetService first;
    private FleetService second;
    private Http http;
    private Http httpToSecond;
    private SimulatedRooms rooms;

    private String config(String image, int max) {
        return """
                name: %s
                game: pong
                image: %s
                ports:
                  - containerPort: 7777
                    protocol: UDP
                    name: game
                autoscaling:
                  min: 3
                  max: %d
                  policy:
                    type: roomOccupancy
                    parameters:
                      readyTarget: 0.5
                      maxMatchesPerRoom: 4
                forwarders:
                  webhook:
                    matchmaker:
                      enabled: true
                      forwardResponse: true
                      url: http://127.0.0.1:%d/events
                      headers: {Authorization: Bearer e2e}
                      retries: 0
                """.formatted(scheduler, image, max, webhook.getAddress().getPort());
    }

    @BeforeEach
    void start() throws IOException {
        webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.setExecutor(Executors.newCachedThreadPool());
        webhook.createContext("/events", exchange -> {
            try (exchange) {
                String auth = exchange.getRequestHeaders().getFirst("Authorization");
                webhookBodies.add(auth + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(webhookStatus, -1);
            }
        });
        webhook.start();
        String schema = "hs_test_mm_" + scheduler.substring(3);
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(
                Option.PORT, "0", Option.REDIS_URI, TestRedis.uri(), Option.JDBC_URL, TestPostgres.jdbcUrl(),
                Option.JDBC_SCHEMA, schema, Option.KUBERNETES, "true", Option.INSECURE_NO_AUTH, "true"), Map.of());
        Consumer<FleetService.Builder> fast = builder -> builder
                .autoscaler(Autoscaler.builder().settings(new AutoscalerSettings(Duration.ofMillis(300), 300)).build())
                .fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(200)).pollInterval(Duration.ofMillis(100))
                .lockTtl(Duration.ofSeconds(5)).lockWait(Duration.ofSeconds(20)).replaceTimeout(Duration.ofSeconds(60)).build());
        first = settings.open(FleetServiceMatchesEndToEndTest::newClient, fast).start();
        second = settings.open(FleetServiceMatchesEndToEndTest::newClient, fast).start();
        http = new Http(first.port());
        httpToSecond = new Http(second.port());
        rooms = new SimulatedRooms(kube.fixture, scheduler, http);
    }

    @AfterEach
    void stop() {
        rooms.close();
        first.close();
        second.close();
        webhook.stop(0);
    }

    private static KubernetesClient newClient() {
        return kube.server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory()));
    }

    private JsonNode status() {
        return http.get("/scheduler/" + scheduler).body();
    }

    private java.util.Map<String, Long> webhookEventTypes() {
        return webhookBodies.stream().map(b -> b.replaceAll(".*\"type\":\"([A-Z_]+)\".*", "$1"))
                .collect(Collectors.groupingBy(t -> t, java.util.TreeMap::new, Collectors.counting()));
    }

    private long webhookEvents(String type) {
        return webhookBodies.stream().filter(b -> b.contains("\"type\":\"" + type + "\"")).count();
    }

    @Test
    void multiMatchRoomsOnRealStores() throws Exception {
        assertThat(http.post("/scheduler", config("pong:1", 3)).status()).isEqualTo(201);
        await().atMost(PATIENCE).until(() -> status().path("roomsAtReady").asInt() == 3 && rooms.allPinged());
        List<String> pods = rooms.podNames();

        // Eight allocators on two services take the 3 rooms x 4 slots, each slot exactly once.
        int allocators = 8;
        ExecutorService pool = Executors.newFixedThreadPool(allocators);
        CountDownLatch go = new CountDownLatch(1);
        List<String> granted = new CopyOnWriteArrayList<>();
        List<Integer> refusals = new CopyOnWriteArrayList<>();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int a = 0; a < allocators; a++) {
                Http client = a % 2 == 0 ? http : httpToSecond;
                running.add(pool.submit(() -> {
                    go.await();
                    while (true) {
                        Http.Answer answer = client.post("/scheduler/" + scheduler + "/rooms/allocate", "");
                        if (answer.status() != 200) {
                            refusals.add(answer.status());
                            return null;
                        }
                        granted.add(answer.body().path("room").asString());
                    }
                }));
            }
            go.countDown();
            for (Future<?> f : running) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        Map<String, Long> perRoom = granted.stream().collect(Collectors.groupingBy(r -> r, Collectors.counting()));
        assertThat(granted).as("every slot once").hasSize(12);
        assertThat(perRoom).containsOnlyKeys(pods).allSatisfy((room, n) -> assertThat(n).isEqualTo(4L));
        assertThat(refusals).hasSize(allocators).containsOnly(409);
        JsonNode allocated = status();
        assertThat(allocated.path("roomsAtAllocated").asInt()).isEqualTo(3);
        assertThat(allocated.path("allocatedSlots").asInt()).isEqualTo(12);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(webhookEvents("ROOM_ALLOCATED"))
                .as("webhook events so far: " + webhookEventTypes()).isEqualTo(12));
        assertThat(webhookBodies).allMatch(b -> b.startsWith("Bearer e2e "));

        // The matches start: the rooms say how many run. 12 matches at readyTarget 0.5 want 24 slots = 6 rooms; max
        // is raised to 10 (a minor version) so the policy may act.
        assertThat(http.put("/scheduler/" + scheduler, config("pong:1", 10)).status()).isEqualTo(200);
        long now = Clock.systemUTC().instant().getEpochSecond();
        for (String pod : pods) {
            Http.Answer ping = http.put("/scheduler/" + scheduler + "/rooms/" + pod + "/status",
                    "{\"timestamp\":" + now + ",\"status\":\"occupied\",\"runningMatches\":4}");
            assertThat(ping.status()).as(ping.raw()).isEqualTo(200);
        }
        JsonNode running = status();
        assertThat(running.path("runningMatches").asInt()).isEqualTo(12);
        assertThat(running.path("allocatedSlots").asInt()).as("the slots became matches").isZero();
        await().atMost(PATIENCE).until(() -> rooms.pods().size() == 6 && rooms.allPinged());
        await().during(Duration.ofSeconds(2)).atMost(PATIENCE).until(() -> rooms.pods().size() == 6);
        assertThat(status().path("state").asString()).isEqualTo("in-sync");
        await().atMost(PATIENCE).until(() -> webhookEvents("ROOM_OCCUPIED") == 3);

        // A player event reaches the webhook; with forwardResponse its failure is the route's answer.
        String event = "{\"timestamp\":" + now + ",\"event\":\"playerJoin\",\"metadata\":{\"playerId\":\"sime\"}}";
        Http.Answer joined = httpToSecond.post("/scheduler/" + scheduler + "/rooms/" + pods.get(0) + "/playerevent", event);
        assertThat(joined.status()).as(joined.raw()).isEqualTo(200);
        assertThat(webhookBodies).anyMatch(b -> b.contains("\"PLAYER_EVENT\"") && b.contains("\"playerId\":\"sime\""));
        webhookStatus = 500;
        Http.Answer failed = http.post("/scheduler/" + scheduler + "/rooms/" + pods.get(0) + "/playerevent", event);
        assertThat(failed.status()).as(failed.raw()).isEqualTo(502);
        assertThat(failed.body().path("code").asString()).isEqualTo("FORWARD_FAILED");
        webhookStatus = 200;

        // A rollback's release says which version it restored, as PostgreSQL keeps it.
        assertThat(http.put("/scheduler/" + scheduler + "/image?wait=true", "{\"image\":\"pong:2\"}").status()).isEqualTo(200);
        // The update released its locks before answering. The owner's watcher may still hold CONFIG for a moment: a
        // tick that read the release in progress just before it ended takes CONFIG to look after it
        // (Watcher.resumeReleases), and an operation is refused LOCKED meanwhile, as documented: a client tries again.
        List<Http.Answer> rollbacks = new CopyOnWriteArrayList<>();
        await().pollDelay(Duration.ZERO).atMost(PATIENCE).until(() -> { // the first try at once, right after the answer
            Http.Answer tried = http.put("/scheduler/" + scheduler + "/rollback?wait=true", "{\"version\":\"v1.1\"}");
            rollbacks.add(tried);
            return !(tried.status() == 409 && tried.body().path("code").asString().equals("LOCKED"));
        });
        Http.Answer rollback = rollbacks.get(rollbacks.size() - 1);
        assertThat(rollback.status()).as(rollback.raw()).isEqualTo(200);
        assertThat(rollback.body().path("version").asString()).isEqualTo("v3.0");
        JsonNode releases = httpToSecond.get("/scheduler/" + scheduler + "/releases").body().path("releases");
        assertThat(releases).extracting(r -> r.path("version").asString() + ":" + r.path("rolledBackTo").asString(""))
                .containsExactly("v1.0:", "v1.1:", "v2.0:", "v3.0:v1.1");
        assertThat(httpToSecond.get("/scheduler/" + scheduler).body().path("rolledBackTo").asString()).isEqualTo("v1.1");

        assertThat(http.delete("/scheduler/" + scheduler).status()).isEqualTo(200);
        await().atMost(PATIENCE).until(() -> rooms.pods().isEmpty());
    }
}
