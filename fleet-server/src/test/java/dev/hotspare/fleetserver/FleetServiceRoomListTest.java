package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import tools.jackson.databind.JsonNode;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code GET /scheduler/{s}/rooms?page=}: every room the driver has, with its status, version and last ping, a page
 * at a time; an in-memory room is {@code creating} until it pings.
 */
class FleetServiceRoomListTest {

    private final ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2);
    private final FleetService service = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC()))
            .adminTokens(List.of("list-admin-token-0123456789")).fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(100))
            .pollInterval(Duration.ofMillis(20)).build()).autoscaler(TestRooms.fastAutoscaler()).build().start();

    @AfterEach
    void stop() {
        service.close();
        executor.shutdownNow();
    }

    @Test
    void everyRoomIsListedWithStatusVersionAndLastPingAPageAtATime() {
        Http http = new Http(service.port()).withToken("list-admin-token-0123456789");
        assertThat(http.post("/scheduler", "name: pong\ngame: pong\nimage: pong:1\nautoscaling:\n  min: 3\n").status()).isEqualTo(201);
        List<String> rooms = TestRooms.awaitRooms(service, "pong", 3);

        Http.Answer all = http.get("/scheduler/pong/rooms?page=1");
        assertThat(all.status()).as(all.raw()).isEqualTo(200);
        assertThat(all.body().path("total").asInt()).isEqualTo(3);
        assertThat(all.body().path("rooms")).extracting(r -> r.path("id").asString()).containsExactlyElementsOf(rooms);
        // Nothing pinged yet: creating (an in-memory room too), with the time it was created.
        for (JsonNode room : all.body().path("rooms")) {
            assertThat(room.path("status").asString()).isEqualTo("creating");
            assertThat(room.path("version").asString()).isEqualTo("v1.0");
            assertThat(room.path("createdAt").asLong()).isPositive();
        }

        long now = Instant.now().getEpochSecond();
        String first = rooms.get(0);
        Http.Answer ping = new Http(service.port()).withToken(service.roomToken("pong", first).orElseThrow())
                .put("/scheduler/pong/rooms/" + first + "/ping", "{\"timestamp\":" + now + ",\"status\":\"ready\"}");
        assertThat(ping.status()).as(ping.raw()).isEqualTo(200);
        JsonNode listed = http.get("/scheduler/pong/rooms?page=1&pageSize=1").body();
        assertThat(listed.path("rooms")).singleElement().satisfies(room -> {
            assertThat(room.path("id").asString()).isEqualTo(first);
            assertThat(room.path("status").asString()).isEqualTo("ready");
            assertThat(room.path("lastPing").asLong()).isEqualTo(now);
        });
        assertThat(listed.path("pageSize").asInt()).isEqualTo(1);
        assertThat(http.get("/scheduler/pong/rooms?page=3&pageSize=1").body().path("rooms"))
                .singleElement().satisfies(room -> assertThat(room.path("id").asString()).isEqualTo(rooms.get(2)));
        assertThat(http.get("/scheduler/pong/rooms?page=4&pageSize=1").body().path("rooms")).isEmpty();

        for (String bad : List.of("page=0", "page=x", "pageSize=0", "pageSize=1001")) {
            Http.Answer answer = http.get("/scheduler/pong/rooms?" + bad);
            assertThat(answer.status()).as(answer.raw()).isEqualTo(400);
            assertThat(answer.body().path("code").asString()).isEqualTo("INVALID_PAGE");
            assertThat(answer.body().path("description").asString()).contains("bad value '" + bad.substring(bad.indexOf('=') + 1) + "'");
        }
        // Without page parameters the route is Maestro's, as before.
        assertThat(http.get("/scheduler/pong/rooms").body().path("rooms")).extracting(JsonNode::asText).containsExactly(first);
    }
}
