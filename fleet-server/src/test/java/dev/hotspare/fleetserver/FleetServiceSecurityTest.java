package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attacks of issue 26 against a real server: every route with no token, a wrong token, another room's token
 * and an admin token; reports for rooms the driver does not have; ambiguous paths sent byte for byte.
 */
class FleetServiceSecurityTest {

    private static final String ADMIN = "admin-token-0123456789";
    /** A second admin token, as during a rotation: both are accepted. */
    private static final String ROTATED = "rotated-token-abcdefghij";
    private static final byte[] KEY = "a room-token key of at least thirty-two bytes".getBytes(StandardCharsets.UTF_8);
    private static final String PONG = """
            name: pong
            game: pong
            image: pong:1
            autoscaling:
              min: 2
            """;

    private final List<ScheduledThreadPoolExecutor> executors = new ArrayList<>();
    private final List<FleetService> services = new ArrayList<>();

    private FleetService start(boolean auth) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2);
        executors.add(executor);
        FleetService.Builder builder = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC()))
                .fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(100))
                .pollInterval(Duration.ofMillis(20)).build()).roomTokenKey(KEY).autoscaler(TestRooms.fastAutoscaler());
        if (auth) {
            builder.adminTokens(List.of(ADMIN, ROTATED));
        } else {
            builder.insecureNoAuth();
        }
        FleetService service = builder.build().start();
        services.add(service);
        return service;
    }

    @AfterEach
    void stop() {
        services.forEach(FleetService::close);
        executors.forEach(ScheduledThreadPoolExecutor::shutdownNow);
    }

    private static String report(String status) {
        return "{\"timestamp\":" + Instant.now().getEpochSecond() + ",\"status\":\"" + status + "\"}";
    }

    private static String event() {
        return "{\"timestamp\":" + Instant.now().getEpochSecond() + ",\"event\":\"playerJoin\"}";
    }

    /** One route: method, path and a body that does no harm when an admin sends it. */
    private record Call(String method, String path, String body) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** Every admin route, on a scheduler that does not exist (an admin gets 404 or 4xx for the body, not 401). */
    private static final List<Call> ADMIN_ROUTES = List.of(
            new Call("POST", "/scheduler/ghost/rooms/allocate", null),
            new Call("GET", "/scheduler/ghost/rooms", null),
            new Call("POST", "/scheduler", "{"),
            new Call("GET", "/scheduler/ghost", null),
            new Call("GET", "/scheduler/ghost?config", null),
            new Call("PUT", "/scheduler/ghost", "{"),
            new Call("POST", "/scheduler/ghost", "{\"scaleup\":1}"),
            new Call("DELETE", "/scheduler/ghost", null),
            new Call("PUT", "/scheduler/ghost/image", "{\"image\":\"pong:2\"}"),
            new Call("PUT", "/scheduler/ghost/min", "{\"min\":1}"),
            new Call("GET", "/scheduler/ghost/config", null),
            new Call("GET", "/scheduler/ghost/releases", null),
            new Call("PUT", "/scheduler/ghost/rollback", "{\"version\":\"v1.0\"}"),
            new Call("PUT", "/scheduler/ghost/diff", "{}"),
            new Call("GET", "/scheduler/ghost/locks", null),
            new Call("GET", "/scheduler/ghost/operations", null),
            new Call("GET", "/scheduler/ghost/operations/x", null),
            new Call("DELETE", "/scheduler/ghost/operations/x", null),
            new Call("DELETE", "/scheduler/ghost/locks/config", null),
            new Call("GET", "/kpis", null),
            new Call("GET", "/metrics", null));

    private static void assertUnauthenticated(Http.Answer answer, Call call, String... secrets) {
        assertThat(answer.status()).as(call + ": " + answer.raw()).isEqualTo(401);
        assertThat(answer.body().path("code").asString()).as(call.toString()).isEqualTo("UNAUTHENTICATED");
        assertThat(answer.headers().firstValue("WWW-Authenticate")).as(call.toString()).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        assertThat(answer.raw()).as(call.toString()).doesNotContain(secrets).doesNotContain("Exception");
    }

    @Test
    void everyRouteWantsItsTokenNoneAWrongOneAnotherRoomsOrAnAdminOne() {
        FleetService service = start(true);
        Http anonymous = new Http(service.port());
        Http admin = anonymous.withToken(ADMIN);
        assertThat(admin.post("/scheduler", PONG).status()).isEqualTo(201);
        List<String> rooms = TestRooms.awaitRooms(service, "pong", 2);
        String room = rooms.get(0);
        String other = rooms.get(1);
        String token = service.roomToken("pong", room).orElseThrow();
        String otherToken = service.roomToken("pong", other).orElseThrow();
        assertThat(token).isNotEqualTo(otherToken).hasSizeGreaterThanOrEqualTo(40);
        assertThat(service.roomToken("pong", "pong-zzz")).isEmpty();
        String[] secrets = {ADMIN, ROTATED, token, otherToken};

        // The health probe is open to all.
        assertThat(anonymous.get("/healthcheck").status()).isEqualTo(200);

        for (Call call : ADMIN_ROUTES) {
            assertUnauthenticated(anonymous.send(call.method(), call.path(), call.body()), call, secrets);
            assertUnauthenticated(anonymous.withToken("wrong-token-0123456789").send(call.method(), call.path(), call.body()), call, secrets);
            // A room's token is no admin token.
            assertUnauthenticated(anonymous.withToken(token).send(call.method(), call.path(), call.body()), call, secrets);
            for (String adminToken : List.of(ADMIN, ROTATED)) {
                Http.Answer answer = anonymous.withToken(adminToken).send(call.method(), call.path(), call.body());
                assertThat(answer.status()).as(call + " with an admin token: " + answer.raw()).isNotIn(401, 403);
                assertThat(answer.raw()).doesNotContain(secrets);
            }
        }
        // A header that is not a bearer token is refused like none.
        Http.Answer basic = sendWithHeader(service.port(), "GET /scheduler/pong HTTP/1.1", "Authorization: Basic " + ADMIN);
        assertThat(basic.status()).isEqualTo(401);
        assertThat(basic.raw()).doesNotContain(ADMIN);

        String base = "/scheduler/pong/rooms/" + room;
        List<Call> reports = List.of(new Call("PUT", base + "/ping", report("ready")), new Call("PUT", base + "/status", report("ready")),
                new Call("POST", base + "/playerevent", event()));
        Call address = new Call("GET", base + "/address", null);
        for (Call call : concat(reports, List.of(address))) {
            assertUnauthenticated(anonymous.send(call.method(), call.path(), call.body()), call, secrets);
            assertUnauthenticated(anonymous.withToken("wrong-token-0123456789").send(call.method(), call.path(), call.body()), call, secrets);
            assertUnauthenticated(anonymous.withToken(otherToken).send(call.method(), call.path(), call.body()), call, secrets);
            Http.Answer own = anonymous.withToken(token).send(call.method(), call.path(), call.body());
            assertThat(own.status()).as(call + " with the room's own token: " + own.raw()).isEqualTo(200);
        }
        for (Call call : reports) {
            // Not even an admin may speak for a room.
            Http.Answer answer = admin.send(call.method(), call.path(), call.body());
            assertThat(answer.status()).as(call + " with an admin token: " + answer.raw()).isEqualTo(403);
            assertThat(answer.body().path("code").asString()).isEqualTo("FORBIDDEN");
            assertThat(answer.raw()).doesNotContain(secrets);
        }
        assertThat(admin.get(address.path()).status()).isEqualTo(200);
        // The room's report counted: it is ready.
        assertThat(admin.get("/scheduler/pong").body().path("roomsAtReady").asInt()).isEqualTo(1);
    }

    @Test
    void aValidTokenForARoomTheDriverDoesNotHaveGets404AndIsNeverCounted() {
        FleetService service = start(true);
        Http admin = new Http(service.port()).withToken(ADMIN);
        assertThat(admin.post("/scheduler", PONG).status()).isEqualTo(201);
        TestRooms.awaitRooms(service, "pong", 2);
        // Someone who holds the key could mint a token for any name; the driver still has no such room.
        Http forger = new Http(service.port()).withToken(Authenticator.disabled(KEY).roomToken("pong", "pong-zzz"));
        Http.Answer ping = forger.put("/scheduler/pong/rooms/pong-zzz/ping", report("ready"));
        assertThat(ping.status()).as(ping.raw()).isEqualTo(404);
        assertThat(ping.body().path("code").asString()).isEqualTo("ROOM_NOT_FOUND");
        assertThat(admin.get("/scheduler/pong").body().path("roomsAtReady").asInt()).isZero();
    }

    @Test
    void reportsForRoomsTheDriverDoesNotHaveAre404EvenWithoutAuthentication() {
        FleetService service = start(false);
        assertThat(service.authenticationEnabled()).isFalse();
        Http http = new Http(service.port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        TestRooms.awaitRooms(service, "pong", 2);
        for (Call call : List.of(new Call("PUT", "/scheduler/pong/rooms/pong-zzz/ping", report("ready")),
                new Call("PUT", "/scheduler/pong/rooms/pong-zzz/status", report("ready")),
                new Call("POST", "/scheduler/pong/rooms/pong-zzz/playerevent", event()),
                new Call("GET", "/scheduler/pong/rooms/pong-zzz/address", null),
                // Not a name a room can have: the same answer.
                new Call("PUT", "/scheduler/pong/rooms/NO%20SUCH/ping", report("ready")))) {
            Http.Answer answer = http.send(call.method(), call.path(), call.body());
            assertThat(answer.status()).as(call + ": " + answer.raw()).isEqualTo(404);
            assertThat(answer.body().path("code").asString()).isEqualTo("ROOM_NOT_FOUND");
        }
        // Never listed, never allocated, never counted towards min.
        Http.Answer status = http.get("/scheduler/pong");
        assertThat(status.body().path("roomsAtReady").asInt()).as(status.raw()).isZero();
        assertThat(http.post("/scheduler/pong/rooms/allocate", null).status()).isEqualTo(409);
        assertThat(http.get("/scheduler/pong/rooms").raw()).doesNotContain("pong-zzz");
        assertThat(TestRooms.ids(service, "pong")).hasSize(2);
    }

    @Test
    void ambiguousPathsAre400BeforeAnyRouteRuns() {
        FleetService service = start(true);
        Http admin = new Http(service.port()).withToken(ADMIN);
        assertThat(admin.post("/scheduler", PONG.replace("name: pong", "name: victim")).status()).isEqualTo(201);
        for (String path : List.of("/scheduler/victim/operations/..", "/scheduler/victim/operations/.",
                "/scheduler/victim/operations/%2e%2e", "/scheduler/victim/operations/%2E%2E", "/scheduler/victim/operations/.%2e",
                "/scheduler/victim%2Foperations", "/scheduler//victim", "/scheduler/victim/./config", "/scheduler/victim;x=1",
                "/scheduler/victim/operations/..;/", "/scheduler/victim/%5c..")) {
            for (String method : List.of("DELETE", "GET")) {
                Http.Answer answer = sendWithHeader(service.port(), method + " " + path + " HTTP/1.1", "Authorization: Bearer " + ADMIN);
                assertThat(answer.status()).as(method + " " + path + ": " + answer.raw()).isEqualTo(400);
                assertThat(answer.body().path("success").asBoolean(true)).as(answer.raw()).isFalse();
                assertThat(answer.raw()).doesNotContain("Exception").doesNotContain(ADMIN);
            }
        }
        // Nothing was deleted, and a plain path still works (a trailing slash too).
        assertThat(admin.get("/scheduler/victim").status()).isEqualTo(200);
        assertThat(admin.get("/scheduler/victim/").status()).isEqualTo(200);
        assertThat(FleetApi.ambiguousPath("/scheduler/victim/operations/abc")).isEmpty();
    }

    @Test
    void theBuilderRefusesToStartOpenWithoutSayingSo() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
        executors.add(executor);
        FleetService.Builder builder = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC()));
        org.assertj.core.api.Assertions.assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("adminTokens").hasMessageContaining("insecureNoAuth()");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> builder.adminTokens(List.of("short")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(
                        "adminTokens[0]: bad value '<redacted, 5 characters>': must be at least 16 characters with no white space");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> builder.roomTokenKey(new byte[8]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("roomTokenKey").hasMessageContaining("32 bytes");
    }

    @Test
    void withoutAuthenticationTheServiceSaysSoAtStartAndEveryMinute() {
        dev.hotspare.time.VirtualTimeScheduler time = new dev.hotspare.time.VirtualTimeScheduler(
                new dev.hotspare.time.VirtualTimeScheduler.VirtualClock(Instant.parse("2026-01-01T00:00:00Z")));
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream log = new java.io.ByteArrayOutputStream();
        // slf4j-simple writes to whatever System.err is when it logs.
        System.setErr(new java.io.PrintStream(log, true, StandardCharsets.UTF_8));
        try (FleetService service = FleetService.builder(time).insecureNoAuth().shutdownTimeout(Duration.ofSeconds(1)).build().start()) {
            time.advanceBy(Duration.ofMinutes(3));
        } finally {
            System.setErr(original);
        }
        String text = log.toString(StandardCharsets.UTF_8);
        assertThat(text.lines().filter(line -> line.contains("authentication is OFF")).count()).as(text).isEqualTo(4);
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Sends {@code requestLine} byte for byte (no client normalises the path) and reads the whole answer. */
    static Http.Answer sendWithHeader(int port, String requestLine, String header) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write((requestLine + "\r\nHost: localhost\r\n" + header + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int status = Integer.parseInt(text.substring(9, 12));
            String body = text.substring(text.indexOf("\r\n\r\n") + 4);
            return new Http.Answer(status, dev.hotspare.json.Documents.jsonReader().readTree(body), null, null, List.of(), text, null);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
