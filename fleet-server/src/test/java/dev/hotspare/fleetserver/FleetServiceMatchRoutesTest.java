package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import tools.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The routes of issue 14 on the in-memory default, over real HTTP: player events and their forwarders, rooms that
 * report running matches, the allocation call and packing, clamped manual scaling, rollback releases, maxsurge.
 */
class FleetServiceMatchRoutesTest {

    private static final String MATCHES = """
            name: pong
            game: pong
            image: pong:1
            autoscaling:
              min: 2
              max: 3
              policy:
                type: roomOccupancy
                parameters: {readyTarget: 0.5, maxMatchesPerRoom: 3}
            """;

    private final Clock clock = Clock.systemUTC();
    private final List<String> webhookBodies = new CopyOnWriteArrayList<>();
    private volatile int webhookStatus = 200;
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
                webhookBodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(webhookStatus, -1);
            }
        });
        webhook.start();
        executor = new ScheduledThreadPoolExecutor(2);
        service = FleetService.builder(TaskScheduler.system(executor, clock)).insecureNoAuth()
                .autoscaler(Autoscaler.builder().settings(new AutoscalerSettings(Duration.ofMillis(100), 300)).build())
                .fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(100))
                .pollInterval(Duration.ofMillis(20)).build()).build().start();
        http = new Http(service.port());
    }

    @AfterEach
    void stop() {
        service.close();
        executor.shutdownNow();
        webhook.stop(0);
    }

    private String withWebhook(String config, boolean forwardResponse) {
        return config + """
                forwarders:
                  webhook:
                    matchmaker:
                      enabled: true
                      forwardResponse: %s
                      url: http://127.0.0.1:%d/events
                      retries: 0
                """.formatted(forwardResponse, webhook.getAddress().getPort());
    }

    private void ping(String room, String status, Integer runningMatches) {
        String body = "{\"timestamp\":" + clock.instant().getEpochSecond() + ",\"status\":\"" + status + "\""
                + (runningMatches == null ? "" : ",\"runningMatches\":" + runningMatches) + "}";
        Http.Answer answer = http.put("/scheduler/pong/rooms/" + room + "/ping", body);
        assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    }

    private static void assertError(Http.Answer answer, int status, String code, String... descriptionParts) {
        assertThat(answer.status()).as(answer.raw()).isEqualTo(status);
        assertThat(answer.body().path("code").asString()).as(answer.raw()).isEqualTo(code);
        if (descriptionParts.length > 0) {
            assertThat(answer.body().path("description").asString()).contains(descriptionParts);
        }
        assertThat(answer.raw()).doesNotContain("Exception").doesNotContain("dev.hotspare");
    }

    @Test
    void playerEventsGoToTheSchedulersWebhookAndItsFailureIsAnsweredWhenAsked() {
        assertThat(http.post("/scheduler", withWebhook(MATCHES, true)).status()).isEqualTo(201);
        String room = TestRooms.awaitRooms(service, "pong", 2).get(0);
        String event = "{\"timestamp\":" + clock.instant().getEpochSecond()
                + ",\"event\":\"playerJoin\",\"metadata\":{\"playerId\":\"sime\",\"team\":2}}";
        // The worker configures the scheduler's forwarders at its next tick.
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            Http.Answer answer = http.post("/scheduler/pong/rooms/" + room + "/playerevent", event);
            assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
            assertThat(webhookBodies).anyMatch(b -> b.contains("\"PLAYER_EVENT\""));
        });
        String forwarded = webhookBodies.stream().filter(b -> b.contains("\"PLAYER_EVENT\"")).findFirst().orElseThrow();
        assertThat(forwarded).contains("\"room\":\"" + room + "\"").contains("\"event\":\"playerJoin\"")
                .contains("\"playerId\":\"sime\"").contains("\"team\":\"2\"");

        webhookStatus = 503;
        assertError(http.post("/scheduler/pong/rooms/" + room + "/playerevent", event), 502, "FORWARD_FAILED",
                "webhook/matchmaker", "answered 503 after 1 attempt");

        assertError(http.post("/scheduler/pong/rooms/" + room + "/playerevent", "{\"timestamp\":1}"), 422, "MISSING_FIELD", "event");
        assertError(http.post("/scheduler/pong/rooms/" + room + "/playerevent", "{\"timestamp\":1,\"event\":\"join me\"}"), 422,
                "INVALID_ARGUMENT", "event", "join me");
        assertError(http.post("/scheduler/pong/rooms/" + room + "/playerevent", "{\"timestamp\":1,\"event\":\"x\",\"metadata\":3}"),
                422, "INVALID_FIELD", "metadata");
        assertError(http.post("/scheduler/nope/rooms/" + room + "/playerevent", event), 404, "SCHEDULER_NOT_FOUND");
        // A room the scheduler's driver does not have: refused, and nothing is forwarded for it.
        int forwardedBefore = webhookBodies.size();
        assertError(http.post("/scheduler/pong/rooms/pong-zzz/playerevent", event), 404, "ROOM_NOT_FOUND", "pong-zzz");
        assertThat(webhookBodies).hasSize(forwardedBefore);
    }

    @Test
    void withoutForwardResponseAFailingWebhookDoesNotFailTheRoute() {
        webhookStatus = 500;
        assertThat(http.post("/scheduler", withWebhook(MATCHES, false)).status()).isEqualTo(201);
        String room = TestRooms.awaitRooms(service, "pong", 2).get(0);
        String event = "{\"timestamp\":" + clock.instant().getEpochSecond() + ",\"event\":\"playerLeft\"}";
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(http.post("/scheduler/pong/rooms/" + room + "/playerevent", event).status()).isEqualTo(200);
            assertThat(webhookBodies).anyMatch(b -> b.contains("playerLeft"));
        });
    }

    @Test
    void roomsReportRunningMatchesSlotsAreAllocatedPackedAndShownInTheStatus() {
        assertThat(http.post("/scheduler", MATCHES).status()).isEqualTo(201);
        List<String> rooms = TestRooms.awaitRooms(service, "pong", 2);
        ping(rooms.get(0), "ready", 0);
        ping(rooms.get(1), "occupied", 1);

        // Packing: the partly used room first, then the empty one.
        assertThat(http.get("/scheduler/pong/rooms?metric=room").body().path("rooms")).extracting(JsonNode::asText)
                .containsExactly(rooms.get(1), rooms.get(0));
        Http.Answer first = http.post("/scheduler/pong/rooms/allocate", "");
        assertThat(first.status()).as(first.raw()).isEqualTo(200);
        assertThat(first.body().toString()).isEqualTo("{\"success\":true,\"room\":\"" + rooms.get(1) + "\"}");

        JsonNode status = http.get("/scheduler/pong").body();
        assertThat(status.path("runningMatches").asInt()).isEqualTo(1);
        assertThat(status.path("allocatedSlots").asInt()).isEqualTo(1);
        assertThat(status.path("roomsAtOccupied").asInt()).isEqualTo(1);
        assertThat(status.path("version").asString()).isEqualTo("v1.0");
        assertThat(status.has("rolledBackTo")).isFalse();

        ping(rooms.get(1), "occupied", 2);
        status = http.get("/scheduler/pong").body();
        assertThat(status.path("runningMatches").asInt()).as("the allocated slot became a match").isEqualTo(2);
        assertThat(status.path("allocatedSlots").asInt()).isZero();

        assertError(http.put("/scheduler/pong/rooms/" + rooms.get(0) + "/ping",
                "{\"timestamp\":1,\"status\":\"ready\",\"runningMatches\":-2}"), 422, "INVALID_ARGUMENT", "runningMatches", "-2");
        assertError(http.put("/scheduler/pong/rooms/" + rooms.get(0) + "/ping",
                "{\"timestamp\":1,\"status\":\"ready\",\"runningMatches\":\"two\"}"), 422, "INVALID_FIELD", "runningMatches");
        assertError(http.post("/scheduler/pong/rooms/allocate", "{\"rooms\":2}"), 422, "UNKNOWN_FIELD", "rooms");
        assertError(http.post("/scheduler/nope/rooms/allocate", ""), 404, "SCHEDULER_NOT_FOUND");
    }

    @Test
    void whenEverySlotIsTakenTheAllocationCallSaysSo() {
        assertThat(http.post("/scheduler", MATCHES.replace("max: 3", "max: 2")).status()).isEqualTo(201);
        List<String> rooms = TestRooms.awaitRooms(service, "pong", 2);
        ping(rooms.get(0), "occupied", 3);
        ping(rooms.get(1), "occupied", 2);
        assertThat(http.post("/scheduler/pong/rooms/allocate", "").body().path("room").asString()).isEqualTo(rooms.get(1));
        assertError(http.post("/scheduler/pong/rooms/allocate", ""), 409, "NO_ROOM_AVAILABLE", "pong");
    }

    @Test
    void manualScalingIsClampedToMaxAndRollbacksAreShown() {
        assertThat(http.post("/scheduler", MATCHES).status()).isEqualTo(201);
        TestRooms.awaitRooms(service, "pong", 2);
        assertThat(http.post("/scheduler/pong", "{\"scaleup\":5}").status()).isEqualTo(200);
        assertThat(TestRooms.ids(service, "pong")).as("max 3").hasSize(3);

        assertThat(http.put("/scheduler/pong/image?wait=true", "{\"image\":\"pong:2\"}").status()).isEqualTo(200);
        Http.Answer rollback = http.put("/scheduler/pong/rollback?wait=true", "{\"version\":\"v1\"}");
        assertThat(rollback.status()).as(rollback.raw()).isEqualTo(200);
        assertThat(rollback.body().path("version").asString()).isEqualTo("v3.0");
        JsonNode releases = http.get("/scheduler/pong/releases").body().path("releases");
        assertThat(releases.get(2).path("rolledBackTo").asString()).isEqualTo("v1.0");
        assertThat(releases.get(1).has("rolledBackTo")).isFalse();
        assertThat(http.get("/scheduler/pong").body().path("rolledBackTo").asString()).isEqualTo("v1.0");

        assertThat(http.put("/scheduler/pong?maxsurge=50%25", MATCHES.replace("pong:1", "pong:4")).status()).isEqualTo(200);
        assertError(http.put("/scheduler/pong?maxsurge=150%25", MATCHES), 400, "INVALID_MAXSURGE", "150%");
    }
}
