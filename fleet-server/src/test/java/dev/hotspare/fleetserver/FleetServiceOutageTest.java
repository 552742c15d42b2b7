package dev.hotspare.fleetserver;

import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.testkit.servers.TestRedis;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lost backend means a prompt 503, not a pile of waiting threads: the fleet service as deployed (flags and
 * variables through {@link FleetServiceSettings}) on an embedded Redis of its own, which the test kills and
 * restarts, and the shared embedded PostgreSQL. With Redis gone, pings and status answer 503 {@code UNAVAILABLE}
 * (the command is rejected, not queued), {@code /healthcheck} says unhealthy, a burst of requests leaves the
 * request threads within their pool, and once Redis is back the same service answers again by itself.
 */
class FleetServiceOutageTest {

    private static final int MAX_THREADS = 16;

    private TestRedis.Server redis;
    private FleetService service;
    private Http http;
    private final String scheduler = "out-" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);

    @BeforeEach
    void start() {
        redis = TestRedis.Server.start(false);
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(Option.PORT, "0", Option.REDIS_URI, redis.uri(),
                Option.JDBC_URL, TestPostgres.jdbcUrl(), Option.JDBC_SCHEMA, "hs_test_outage_" + scheduler.substring(4),
                Option.MAX_THREADS, String.valueOf(MAX_THREADS), Option.STORE_TIMEOUT, "2", Option.INSECURE_NO_AUTH, "true"), Map.of());
        service = settings.open(() -> new io.fabric8.kubernetes.client.KubernetesClientBuilder().build(),
                b -> b.autoscaler(TestRooms.fastAutoscaler())).start();
        http = new Http(service.port());
    }

    @AfterEach
    void stop() {
        service.close();
        redis.close();
    }

    private String ping(String room) {
        return "{\"timestamp\": " + Instant.now().getEpochSecond() + ", \"status\": \"ready\"}";
    }

    @Test
    void withRedisGoneRequestsAnswer503PromptlyThreadsStayBoundedAndTheServiceRecoversByItself() {
        assertThat(http.post("/scheduler", "name: " + scheduler + "\ngame: pong\nimage: pong:1\nautoscaling:\n  min: 1\n").status())
                .isEqualTo(201);
        // Only a room the driver has may report (a ping for any other is 404 before a store is asked).
        String r1 = TestRooms.awaitRooms(service, scheduler, 1).get(0);
        assertThat(http.put("/scheduler/" + scheduler + "/rooms/" + r1 + "/ping", ping(r1)).status()).isEqualTo(200);
        assertThat(http.get("/healthcheck").status()).isEqualTo(200);

        redis.stop();

        // Unhealthy as soon as the connection is seen lost (Lettuce notices a closed socket at once).
        await().atMost(Duration.ofSeconds(60)).until(() -> http.get("/healthcheck").status() == 500);
        assertThat(http.get("/healthcheck").body().toString()).isEqualTo("{\"healthy\":false,\"failed\":[\"redis\"]}");
        Http.Answer ping = http.put("/scheduler/" + scheduler + "/rooms/" + r1 + "/ping", ping(r1));
        assertThat(ping.status()).as(ping.raw()).isEqualTo(503);
        assertThat(ping.body().path("code").asString()).isEqualTo("UNAVAILABLE");
        assertThat(ping.raw()).doesNotContain("Exception", "java.");
        assertThat(http.get("/scheduler/" + scheduler).status()).isEqualTo(503);

        // A burst of 200 concurrent requests: every one answered, none waits for Redis, threads stay in the pool.
        ExecutorService clients = Executors.newFixedThreadPool(50);
        try {
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String room = r1;
                answers.add(CompletableFuture.supplyAsync(() -> http.put("/scheduler/" + scheduler + "/rooms/" + room + "/ping",
                        ping(room)).status(), clients));
            }
            assertThat(answers.stream().map(CompletableFuture::join).distinct().toList()).containsExactly(503);
        } finally {
            clients.shutdownNow();
        }
        assertThat(Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("fleet-http")).count())
                .as("request threads").isLessThanOrEqualTo(MAX_THREADS);

        redis.restart();

        await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/healthcheck").status() == 200);
        await().atMost(Duration.ofSeconds(30)).until(() -> http.put("/scheduler/" + scheduler + "/rooms/" + r1 + "/ping", ping(r1)).status() == 200);
        assertThat(http.get("/scheduler/" + scheduler).status()).isEqualTo(200);
    }
}
