package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import com.sun.net.httpserver.HttpServer;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bad input of issue 26 §5 that the service answered badly: each gets one clear line naming the field and the
 * value, and no Java class name.
 */
class FleetServiceBadInputTest {

    private static final String PONG = """
            name: pong
            game: pong
            image: pong:1
            autoscaling:
              min: 1
            """;

    /** A webhook that never answers until the test ends. */
    private final CountDownLatch release = new CountDownLatch(1);
    private HttpServer webhook;
    private ScheduledThreadPoolExecutor executor;
    private FleetService service;
    private Http http;

    @BeforeEach
    void start() throws IOException {
        webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        webhook.setExecutor(Executors.newCachedThreadPool());
        webhook.createContext("/events", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                release.await(60, TimeUnit.SECONDS);
                exchange.sendResponseHeaders(200, -1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        webhook.start();
        executor = new ScheduledThreadPoolExecutor(2);
        service = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC())).insecureNoAuth()
                .fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(100)).pollInterval(Duration.ofMillis(20)).build())
                .forwardResponseWait(Duration.ofSeconds(1)).autoscaler(TestRooms.fastAutoscaler()).build().start();
        http = new Http(service.port());
    }

    @AfterEach
    void stop() {
        release.countDown();
        service.close();
        executor.shutdownNow();
        webhook.stop(0);
    }

    private static void assertError(Http.Answer answer, int status, String code, String... descriptionParts) {
        assertThat(answer.status()).as(answer.raw()).isEqualTo(status);
        assertThat(answer.body().path("code").asString()).as(answer.raw()).isEqualTo(code);
        assertThat(answer.body().path("description").asString()).contains(descriptionParts);
        assertThat(answer.raw()).doesNotContain("Exception").doesNotContain("java.").doesNotContain("com.fasterxml")
                .doesNotContain("org.yaml").doesNotContain("dev.hotspare");
    }

    @Test
    void waitIsTrueOrFalseAndNothingElseAndNothingIsSavedOtherwise() {
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        for (String wait : new String[]{"maybe", "", "yes", "TRUE", "1"}) {
            assertError(http.put("/scheduler/pong/min?wait=" + wait, "{\"min\": 2}"), 400, "INVALID_WAIT",
                    "wait: bad value '" + wait + "': must be true or false");
        }
        assertError(http.put("/scheduler/pong/min?wait", "{\"min\": 2}"), 400, "INVALID_WAIT", "wait: bad value ''");
        assertError(http.put("/scheduler/pong/min?wait=true&wait=false", "{\"min\": 2}"), 400, "BAD_QUERY",
                "wait: bad value 'wait=true&wait=false': given more than once");
        // None of them was saved.
        assertThat(http.get("/scheduler/pong").body().path("version").asString()).isEqualTo("v1.0");
        Http.Answer saved = http.put("/scheduler/pong/min?wait=false", "{\"min\": 2}");
        assertThat(saved.status()).as(saved.raw()).isEqualTo(200);
        assertThat(saved.body().path("version").asString()).isEqualTo("v1.1");
    }

    @Test
    void playerEventTimestampsAreCheckedAsPingsAreAndAForwardedAnswerIsWaitedForAtMostTheCap() {
        assertThat(http.post("/scheduler", PONG + """
                forwarders:
                  webhook:
                    matchmaker:
                      enabled: true
                      forwardResponse: true
                      url: http://127.0.0.1:%d/events
                      retries: 0
                      timeout: 30
                """.formatted(webhook.getAddress().getPort())).status()).isEqualTo(201);
        String room = TestRooms.awaitRooms(service, "pong", 1).get(0);
        String path = "/scheduler/pong/rooms/" + room + "/playerevent";
        long now = Instant.now().getEpochSecond();
        assertError(http.post(path, "{\"timestamp\": -1, \"event\": \"playerJoin\"}"), 422, "INVALID_ARGUMENT",
                "timestamp: bad value '-1': must be seconds since the epoch");
        assertError(http.post(path, "{\"timestamp\": " + now * 1000 + ", \"event\": \"playerJoin\"}"), 422, "INVALID_ARGUMENT",
                "(this looks like milliseconds)");
        assertError(http.post(path, "{\"timestamp\": " + (now + 3600) + ", \"event\": \"playerJoin\"}"), 422, "INVALID_ARGUMENT",
                "is more than 60s ahead of the server's clock");

        // The webhook holds every request: the room's request is answered 502 once the cap (1 s here) is over,
        // not after the forwarder's 30 s timeout. The worker configures the forwarder at its next tick.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertError(
                http.post(path, "{\"timestamp\": " + Instant.now().getEpochSecond() + ", \"event\": \"playerJoin\"}"),
                502, "FORWARD_TIMEOUT", "forwarders: bad value 'PT1S': no answer within this cap"));
    }

    @Test
    void deletedSchedulersLeaveNoMetersAndTheDroppedEventsCounterExists() {
        java.util.List<String> names = java.util.stream.IntStream.range(0, 12).mapToObj(i -> "gone-" + i).toList();
        for (String name : names) {
            assertThat(http.post("/scheduler", "name: " + name + "\ngame: pong\nimage: pong:1\n").status()).isEqualTo(201);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> names.stream().allMatch(n -> http.get("/metrics").raw().contains("\"" + n + "\"")));
        for (String name : names) {
            Http.Answer deleted = http.delete("/scheduler/" + name);
            assertThat(deleted.status()).as(deleted.raw()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(http.get("/metrics").raw()).doesNotContain("gone-"));
        assertThat(http.get("/kpis").raw()).doesNotContain("gone-");
        assertThat(http.get("/metrics").raw()).contains("hotspare_fleet_events_dropped_total 0.0");
    }

    @Test
    void parseErrorsAreOneLineWithoutJavaNamesAndTheLineLimitIsSaid() {
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        // Two JSON documents for a JSON route, a YAML complex key, a line over 64 KiB inside the 1 MiB body limit.
        assertError(http.put("/scheduler/pong/min", "{\"min\": 2} {\"min\": 3}"), 400, "BAD_JSON", "more than one document");
        assertError(http.post("/scheduler", "name: other\n? [a, b]\n: x\n"), 400, "BAD_JSON", "a construct that is not supported");
        assertError(http.post("/scheduler", "name: other\ngame: pong\nimage: " + "x".repeat(900_000) + "\n"), 400, "BAD_JSON",
                "line 3 is longer than 65536 characters, the longest line a YAML or JSON document may have here");
        assertError(http.post("/scheduler", "name: other\n# " + "c".repeat(70_000) + "\ngame: pong\n"), 400, "BAD_JSON",
                "line 2 is longer than 65536 characters");
    }
}
