package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import tools.jackson.databind.JsonNode;
import dev.hotspare.fleet.autoscale.Autoscaler;
import dev.hotspare.fleet.autoscale.Autoscaler.AutoscalerSettings;
import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Every route of docs/fleet-service.md on the in-memory default, over real HTTP: status codes and bodies. */
class FleetServiceRoutesTest {

    static final String PONG = """
            name: pong
            game: pong-game
            image: pong:1
            ports:
              - containerPort: 7777
                protocol: UDP
                name: game
            autoscaling:
              min: 2
            """;

    /** The service's clock: room reports carry its seconds. */
    private final Clock clock = Clock.systemUTC();
    private ScheduledThreadPoolExecutor executor;
    private InMemoryLockStore lockStore;
    private final AtomicBoolean storeHealthy = new AtomicBoolean(true);
    private FleetService service;
    private Http http;

    @BeforeEach
    void start() {
        executor = new ScheduledThreadPoolExecutor(2);
        TaskScheduler tasks = TaskScheduler.system(executor, clock);
        lockStore = new InMemoryLockStore(tasks.clock());
        service = FleetService.builder(tasks).insecureNoAuth().lockStore(lockStore)
                .autoscaler(Autoscaler.builder().settings(new AutoscalerSettings(Duration.ofMillis(100), 300)).build())
                .fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(100)).pollInterval(Duration.ofMillis(20)).build())
                .maxBodyBytes(64 * 1024)
                .healthCheck("store", () -> {
                    if (!storeHealthy.get()) {
                        throw new IllegalStateException("store down");
                    }
                })
                .build().start();
        http = new Http(service.port());
    }

    @AfterEach
    void stop() {
        service.close();
        executor.shutdownNow();
    }

    private void createPong() {
        assertSuccess(http.post("/scheduler", PONG), 201);
    }

    private static void assertSuccess(Http.Answer answer, int status) {
        assertThat(answer.status()).as(answer.raw()).isEqualTo(status);
        assertThat(answer.body().path("success").asBoolean()).as(answer.raw()).isTrue();
        assertThat(answer.maestroVersion()).isEqualTo(FleetService.DEFAULT_API_VERSION);
    }

    /** Maestro's error body, the version header, JSON, and nothing that looks like a stack trace. */
    private static void assertError(Http.Answer answer, int status, String code, String... descriptionParts) {
        assertThat(answer.status()).as(answer.raw()).isEqualTo(status);
        JsonNode body = answer.body();
        assertThat(body.path("code").asString()).as(answer.raw()).isEqualTo(code);
        assertThat(body.path("error").asString()).isNotBlank();
        if (descriptionParts.length > 0) {
            assertThat(body.path("description").asString()).contains(descriptionParts);
        }
        assertThat(body.path("success").isBoolean() && !body.path("success").asBoolean()).as(answer.raw()).isTrue();
        assertThat(body.size()).as("exactly code, error, description, success").isEqualTo(4);
        assertThat(answer.maestroVersion()).isEqualTo(FleetService.DEFAULT_API_VERSION);
        assertThat(answer.contentType()).startsWith("application/json");
        assertThat(answer.raw()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("<html");
    }

    // --- healthcheck ------------------------------------------------------------------------------------------

    @Test
    void healthcheckAnswers200WhenEveryCheckPassesAnd500Otherwise() {
        Http.Answer healthy = http.get("/healthcheck");
        assertThat(healthy.status()).isEqualTo(200);
        assertThat(healthy.body().toString()).isEqualTo("{\"healthy\":true}");
        assertThat(healthy.maestroVersion()).isEqualTo("9.6.1");

        storeHealthy.set(false);
        Http.Answer sick = http.get("/healthcheck");
        assertThat(sick.status()).isEqualTo(500);
        assertThat(sick.body().toString()).isEqualTo("{\"healthy\":false,\"failed\":[\"store\"]}");
        assertThat(sick.maestroVersion()).isEqualTo("9.6.1");
    }

    // --- create / status / config -------------------------------------------------------------------------------

    @Test
    void createAcceptsYamlAndJsonAndRefusesDuplicatesAndBadConfigs() {
        createPong();
        assertError(http.post("/scheduler", PONG), 409, "ALREADY_EXISTS", "name", "pong");
        assertSuccess(http.post("/scheduler", "{\"name\":\"tetris\",\"game\":\"blocks\",\"image\":\"tetris:1\"}"), 201);
        assertError(http.post("/scheduler", "name: chess\ngame: chess\n"), 422, "INVALID_CONFIG", "image");
        assertError(http.post("/scheduler", "name: Bad_Name\ngame: g\nimage: i\n"), 422, "INVALID_CONFIG", "name", "Bad_Name");
        assertError(http.post("/scheduler", "{\"name\": \"x\", "), 400, "BAD_JSON");
        assertError(http.post("/scheduler", ""), 422, "MISSING_FIELD");
        assertError(http.post("/scheduler", "name: x\ngame: g\nimage: i\nimgae: j\n"), 422, "INVALID_CONFIG", "imgae");
    }

    @Test
    void statusReportsStateTimesAndRoomCountsPerStatus() {
        createPong();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            JsonNode now = http.get("/scheduler/pong").body();
            return now.path("roomsAtCreating").asInt() == 2 && now.path("state").asString().equals("in-sync");
        });
        Http.Answer status = http.get("/scheduler/pong");
        assertThat(status.status()).isEqualTo(200);
        JsonNode body = status.body();
        assertThat(body.path("game").asString()).isEqualTo("pong-game");
        assertThat(body.path("state").asString()).isEqualTo("in-sync");
        assertThat(body.path("stateLastChangedAt").isIntegralNumber()).isTrue();
        assertThat(body.path("lastScaleOpAt").asLong()).isPositive();
        assertThat(body.path("roomsAtReady").asInt()).isZero();
        assertThat(body.path("roomsAtOccupied").asInt()).isZero();
        assertThat(body.path("roomsAtTerminating").asInt()).isZero();
        assertThat(status.maestroVersion()).isEqualTo("9.6.1");

        assertError(http.get("/scheduler/nope"), 404, "SCHEDULER_NOT_FOUND", "nope");
    }

    @Test
    void configRoutesReturnTheSubmittedYamlCurrentOrByVersion() {
        createPong();
        Http.Answer current = http.get("/scheduler/pong?config");
        assertThat(current.status()).isEqualTo(200);
        assertThat(current.body().path("yaml").asString()).isEqualTo(PONG);
        assertSuccess(http.put("/scheduler/pong/image", "{\"image\":\"pong:2\"}"), 200);

        assertThat(http.get("/scheduler/pong/config").body().path("yaml").asString()).contains("pong:2");
        assertThat(http.get("/scheduler/pong/config?version=v1.0").body().path("yaml").asString()).isEqualTo(PONG);
        assertError(http.get("/scheduler/pong/config?version=v7.0"), 404, "VERSION_NOT_FOUND", "v7.0");
        assertError(http.get("/scheduler/pong/config?version=seven"), 400, "INVALID_VERSION", "seven");
        assertError(http.get("/scheduler/nope/config"), 404, "SCHEDULER_NOT_FOUND");
        assertError(http.get("/scheduler/nope?config"), 404, "SCHEDULER_NOT_FOUND");
    }

    // --- rooms --------------------------------------------------------------------------------------------------

    @Test
    void pingAndStatusRecordRoomReportsAndRejectBadBodies() {
        createPong();
        List<String> rooms = TestRooms.awaitRooms(service, "pong", 2);
        String room = rooms.get(0);
        long now = clock.instant().getEpochSecond();
        assertSuccess(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\":" + now + ",\"status\":\"ready\"}"), 200);
        assertSuccess(http.put("/scheduler/pong/rooms/" + room + "/status", "{\"timestamp\":" + (now + 1) + ",\"status\":\"occupied\"}"), 200);
        JsonNode status = http.get("/scheduler/pong").body();
        assertThat(status.path("roomsAtOccupied").asInt()).isEqualTo(1);
        assertSuccess(http.put("/scheduler/pong/rooms/" + room + "/status", "{\"timestamp\":" + (now + 2) + ",\"status\":\"ready\"}"), 200);
        assertThat(http.get("/scheduler/pong").body().path("roomsAtReady").asInt()).isEqualTo(1);

        String ping = "/scheduler/pong/rooms/" + room + "/ping";
        assertError(http.put(ping, "{\"status\":\"ready\"}"), 422, "MISSING_FIELD", "timestamp");
        assertError(http.put(ping, "{\"timestamp\":" + now + "}"), 422, "MISSING_FIELD", "status");
        assertError(http.put(ping, "{\"timestamp\":\"soon\",\"status\":\"ready\"}"), 422, "INVALID_FIELD", "timestamp", "soon");
        assertError(http.put(ping, "{\"timestamp\":" + now + ",\"status\":7}"), 422, "INVALID_FIELD", "status");
        assertError(http.put(ping, "{\"timestamp\":" + now + ",\"status\":\"sleepy\"}"), 422, "INVALID_ARGUMENT", "sleepy");
        assertError(http.put(ping, "{\"timestamp\":" + now + ",\"status\":\"ready\",\"stauts\":1}"), 422, "UNKNOWN_FIELD", "stauts", "status");
        assertError(http.put(ping, "{\"timestamp\":"), 400, "BAD_JSON");
        assertError(http.put(ping, "[1,2]"), 400, "BAD_JSON");
        assertError(http.put("/scheduler/nope/rooms/r/ping", "{\"timestamp\":" + now + ",\"status\":\"ready\"}"), 404, "SCHEDULER_NOT_FOUND");
    }

    @Test
    void aRoomReportingErrorIsAcceptedAndRemovedAsADeadRoom() {
        // Item 11 of issue 27: Maestro 10's error status is a known status; the status answer counts it in
        // roomsAtError (exact counts are pinned by the store contract), and the watcher removes the room.
        createPong();
        String room = TestRooms.awaitRooms(service, "pong", 2).get(0);
        long now = clock.instant().getEpochSecond();
        assertSuccess(http.put("/scheduler/pong/rooms/" + room + "/status", "{\"timestamp\":" + now + ",\"status\":\"error\"}"), 200);
        assertThat(http.get("/scheduler/pong").body().has("roomsAtError")).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> !TestRooms.ids(service, "pong").contains(room));
        await().atMost(Duration.ofSeconds(30)).until(() -> http.get("/scheduler/pong").body().path("roomsAtError").asInt() == 0);
    }

    @Test
    void addressIsEmptyInMemoryAndUnknownRoomsAre404() {
        createPong();
        String room = TestRooms.awaitRooms(service, "pong", 1).get(0);
        Http.Answer address = http.get("/scheduler/pong/rooms/" + room + "/address");
        assertThat(address.status()).isEqualTo(200);
        assertThat(address.body().toString()).isEqualTo("{\"host\":\"\",\"ports\":[]}");
        assertError(http.get("/scheduler/pong/rooms/ghost/address"), 404, "ROOM_NOT_FOUND", "ghost");
        assertError(http.get("/scheduler/nope/rooms/ghost/address"), 404, "SCHEDULER_NOT_FOUND");
    }

    @Test
    void roomsByMetricDefaultsToReadyRoomsAndValidatesMetricAndLimit() {
        createPong();
        List<String> rooms = TestRooms.awaitRooms(service, "pong", 2);
        long now = clock.instant().getEpochSecond();
        for (String room : rooms) {
            assertSuccess(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\":" + now + ",\"status\":\"ready\"}"), 200);
        }
        Http.Answer all = http.get("/scheduler/pong/rooms");
        assertThat(all.status()).isEqualTo(200);
        assertThat(all.body().path("rooms")).extracting(JsonNode::asText).containsExactlyElementsOf(rooms.stream().sorted().toList());
        assertThat(http.get("/scheduler/pong/rooms?metric=legacy&limit=1").body().path("rooms")).hasSize(1);
        assertThat(http.get("/scheduler/pong/rooms?metric=cpu").body().path("rooms")).isEmpty();

        assertError(http.get("/scheduler/pong/rooms?metric=gpu"), 400, "INVALID_METRIC", "gpu");
        assertError(http.get("/scheduler/pong/rooms?limit=0"), 400, "INVALID_LIMIT", "0");
        assertError(http.get("/scheduler/pong/rooms?limit=many"), 400, "INVALID_LIMIT", "many");
        assertError(http.get("/scheduler/nope/rooms"), 404, "SCHEDULER_NOT_FOUND");
    }

    // --- update / image / min / releases / rollback / diff ------------------------------------------------------

    @Test
    void updateSavesANewVersionAndRefusesAnotherNameOrAnUnknownScheduler() {
        createPong();
        TestRooms.awaitRooms(service, "pong", 2);
        assertSuccess(http.put("/scheduler/pong?maxsurge=50&wait=true", PONG.replace("pong:1", "pong:2")), 200);
        assertThat(http.get("/scheduler/pong/releases").body().path("releases")).extracting(r -> r.path("version").asString())
                .containsExactly("v1.0", "v2.0");
        assertThat(TestRooms.versions(service, "pong")).containsOnly("v2.0");

        assertError(http.put("/scheduler/pong", PONG.replace("name: pong", "name: tennis")), 400, "NAME_MISMATCH", "tennis");
        assertError(http.put("/scheduler/tennis", PONG.replace("name: pong", "name: tennis")), 404, "SCHEDULER_NOT_FOUND", "tennis");
        assertError(http.put("/scheduler/pong?maxsurge=0", PONG), 400, "INVALID_MAXSURGE", "0");
        assertError(http.put("/scheduler/pong", "{\"name\": "), 400, "BAD_JSON");
        assertError(http.put("/scheduler/pong", PONG.replace("image: pong:1\n", "")), 422, "INVALID_CONFIG", "image");
    }

    @Test
    void imageAndMinUpdateOneFieldAndNeedIt() {
        createPong();
        assertSuccess(http.put("/scheduler/pong/image?wait=true", "{\"image\":\"pong:3\"}"), 200);
        assertSuccess(http.put("/scheduler/pong/image", "{\"image\":\"pong:3\"}"), 200);
        assertSuccess(http.put("/scheduler/pong/min", "{\"min\":3}"), 200);
        assertThat(http.get("/scheduler/pong/releases").body().path("releases")).extracting(r -> r.path("version").asString())
                .as("same image twice: nothing; min: a minor").containsExactly("v1.0", "v2.0", "v2.1");

        assertError(http.put("/scheduler/pong/image", "{}"), 422, "MISSING_FIELD", "image");
        assertError(http.put("/scheduler/pong/image", "{\"image\":5}"), 422, "INVALID_FIELD", "image");
        assertError(http.put("/scheduler/pong/min", "{}"), 422, "MISSING_FIELD", "min");
        assertError(http.put("/scheduler/pong/min", "{\"min\":\"three\"}"), 422, "INVALID_FIELD", "min", "three");
        assertError(http.put("/scheduler/pong/min", "{\"min\":-1}"), 422, "INVALID_CONFIG", "min");
        assertError(http.put("/scheduler/nope/image", "{\"image\":\"x\"}"), 404, "SCHEDULER_NOT_FOUND");
        assertError(http.put("/scheduler/nope/min", "{\"min\":1}"), 404, "SCHEDULER_NOT_FOUND");
    }

    @Test
    void releasesRollbackAndDiff() {
        createPong();
        assertSuccess(http.put("/scheduler/pong/image?wait=true", "{\"image\":\"pong:2\"}"), 200);
        Http.Answer releases = http.get("/scheduler/pong/releases");
        assertThat(releases.status()).isEqualTo(200);
        assertThat(releases.body().path("releases").get(0).path("createdAt").asString()).matches("\\d{4}-.*Z");

        Http.Answer rollback = http.put("/scheduler/pong/rollback?wait=true", "{\"version\":\"v1.0\"}");
        assertThat(rollback.status()).as(rollback.raw()).isEqualTo(200);
        assertThat(rollback.body().path("version").asString()).isEqualTo("v3.0");
        assertThat(rollback.body().path("status").asString()).isEqualTo("deployed");
        assertThat(http.get("/scheduler/pong?config").body().path("yaml").asString()).contains("pong:1");

        Http.Answer diff = http.put("/scheduler/pong/diff", "");
        assertThat(diff.status()).isEqualTo(200);
        assertThat(diff.body().path("version1").asString()).isEqualTo("v3.0");
        assertThat(diff.body().path("version2").asString()).isEqualTo("v2.0");
        assertThat(diff.body().path("diff").asString()).contains("major").contains("image").contains("pong:2").contains("pong:1");
        Http.Answer between = http.put("/scheduler/pong/diff", "{\"version1\":\"v3.0\",\"version2\":\"v1.0\"}");
        assertThat(between.body().path("diff").asString()).startsWith("none");

        assertError(http.put("/scheduler/pong/rollback", "{}"), 422, "MISSING_FIELD", "version");
        assertError(http.put("/scheduler/pong/rollback", "{\"version\":\"latest\"}"), 422, "INVALID_FIELD", "latest");
        assertError(http.put("/scheduler/pong/rollback", "{\"version\":\"v9.0\"}"), 404, "VERSION_NOT_FOUND", "v9.0");
        assertError(http.put("/scheduler/pong/diff", "{\"version1\":\"v1.0\"}"), 404, "VERSION_NOT_FOUND", "no previous version");
        assertError(http.put("/scheduler/pong/diff", "{\"version2\":\"v1.0\"}"), 422, "MISSING_FIELD", "version1");
        assertError(http.get("/scheduler/nope/releases"), 404, "SCHEDULER_NOT_FOUND");
    }

    // --- scale / delete -----------------------------------------------------------------------------------------

    @Test
    void scaleUpDownAndToReplicas() {
        createPong();
        TestRooms.awaitRooms(service, "pong", 2);
        assertSuccess(http.post("/scheduler/pong", "{\"scaleup\":2}"), 200);
        assertThat(TestRooms.ids(service, "pong")).hasSize(4);
        long now = clock.instant().getEpochSecond();
        for (String room : TestRooms.ids(service, "pong")) {
            assertSuccess(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\":" + now + ",\"status\":\"ready\"}"), 200);
        }
        assertSuccess(http.post("/scheduler/pong", "{\"scaledown\":1}"), 200);
        assertThat(TestRooms.ids(service, "pong")).hasSize(3);
        assertSuccess(http.post("/scheduler/pong", "{\"replicas\":5}"), 200);
        assertThat(TestRooms.ids(service, "pong")).hasSize(5);

        assertError(http.post("/scheduler/pong", "{}"), 422, "MISSING_FIELD", "scaleup");
        assertError(http.post("/scheduler/pong", "{\"scaleup\":1,\"scaledown\":1}"), 422, "INVALID_FIELD", "only one");
        assertError(http.post("/scheduler/pong", "{\"scaleup\":0}"), 422, "INVALID_CONFIG", "scaleup");
        assertError(http.post("/scheduler/pong", "{\"replicas\":-1}"), 422, "INVALID_CONFIG", "replicas");
        assertError(http.post("/scheduler/pong", "{\"scaleup\":\"2\"}"), 422, "INVALID_FIELD", "scaleup");
        assertError(http.post("/scheduler/pong", "{\"scaleup\":1.5}"), 422, "INVALID_FIELD", "scaleup");
        assertError(http.post("/scheduler/nope", "{\"scaleup\":1}"), 404, "SCHEDULER_NOT_FOUND");
    }

    @Test
    void deleteRemovesTheSchedulerAndItsRooms() {
        createPong();
        TestRooms.awaitRooms(service, "pong", 2);
        assertSuccess(http.delete("/scheduler/pong"), 200);
        assertError(http.get("/scheduler/pong"), 404, "SCHEDULER_NOT_FOUND");
        assertThat(TestRooms.ids(service, "pong")).isEmpty();
        assertError(http.delete("/scheduler/pong"), 404, "SCHEDULER_NOT_FOUND");
    }

    // --- locks --------------------------------------------------------------------------------------------------

    @Test
    void locksAreListedWithOwnerFenceAndExpiryAndCanBeForceReleased() {
        createPong();
        Lease held = lockStore.tryAcquire("scheduler.pong.config", Duration.ofMinutes(5)).orElseThrow();
        Http.Answer locks = http.get("/scheduler/pong/locks");
        assertThat(locks.status()).isEqualTo(200);
        JsonNode lock = locks.body().path("locks").get(0);
        assertThat(lock.path("kind").asString()).isEqualTo("config");
        assertThat(lock.path("key").asString()).isEqualTo("scheduler.pong.config");
        assertThat(lock.path("owner").asString()).isEqualTo(held.ownerToken());
        assertThat(lock.path("fencingToken").asLong()).isEqualTo(held.fencingToken());
        assertThat(lock.path("expiresAt").asString()).isEqualTo(held.expiresAt().toString());
        assertThat(lock.path("acquiredAt").asString()).isEqualTo(held.acquiredAt().toString());

        assertError(http.put("/scheduler/pong/image", "{\"image\":\"pong:9\"}"), 409, "LOCKED", "CONFIG");

        Http.Answer released = http.delete("/scheduler/pong/locks/config");
        assertThat(released.status()).isEqualTo(200);
        assertThat(released.body().toString()).isEqualTo("{\"success\":true,\"released\":true}");
        assertThat(http.delete("/scheduler/pong/locks/config").body().path("released").asBoolean()).isFalse();
        assertThat(lockStore.renew(held, Duration.ofMinutes(1))).as("the former holder lost it").isEmpty();
        assertSuccess(http.put("/scheduler/pong/image", "{\"image\":\"pong:9\"}"), 200);
        assertError(http.delete("/scheduler/pong/locks/confg"), 404, "LOCK_KIND_NOT_FOUND", "confg", "config");
        assertError(http.get("/scheduler/Not_A_Name/locks"), 422, "INVALID_ARGUMENT", "Not_A_Name");
    }

    // --- protocol errors ----------------------------------------------------------------------------------------

    @Test
    void unknownRoutesWrongMethodsAndOversizedBodiesGetErrorBodies() {
        assertError(http.get("/schedulers"), 404, "ROUTE_NOT_FOUND", "/schedulers");
        assertError(http.get("/scheduler/pong/rooms/r/ping/extra"), 404, "ROUTE_NOT_FOUND");

        Http.Answer wrongMethod = http.send("PATCH", "/scheduler/pong", "{}");
        assertError(wrongMethod, 405, "METHOD_NOT_ALLOWED", "PATCH");
        assertThat(wrongMethod.allow()).containsExactly("GET, PUT, POST, DELETE");
        Http.Answer getPing = http.get("/scheduler/pong/rooms/r/ping");
        assertError(getPing, 405, "METHOD_NOT_ALLOWED", "GET");
        assertThat(getPing.allow()).containsExactly("PUT");
        assertThat(http.delete("/healthcheck").allow()).containsExactly("GET");

        String huge = "name: pong\ngame: g\nimage: i\n# " + "x".repeat(64 * 1024) + "\n";
        assertError(http.post("/scheduler", huge), 413, "BODY_TOO_LARGE", "65536");
        // The service still answers after refusing a body it did not read.
        assertThat(http.get("/healthcheck").status()).isEqualTo(200);
    }
}
