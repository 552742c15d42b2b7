package dev.hotspare.fleet.events;

import tools.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.hotspare.fleet.events.EventForwarderProvider.ForwarderContext;
import dev.hotspare.fleet.events.internal.WebhookEventForwarder;
import dev.hotspare.json.Documents;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** The webhook forwarder against a real local HTTP server; retries run on virtual time. */
class WebhookForwarderTest {

    /** One request the server received. */
    record Received(String method, String path, Map<String, List<String>> headers, JsonNode body) {
    }

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    /** Statuses to answer, in order; 200 once they run out. */
    private final ConcurrentLinkedQueue<Integer> answers = new ConcurrentLinkedQueue<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile boolean hold;
    private HttpServer server;
    private String url;

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/events", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                        Map.copyOf(exchange.getRequestHeaders()), Documents.jsonReader().readTree(new String(body, StandardCharsets.UTF_8))));
                if (hold) {
                    release.await();
                }
                Integer status = answers.poll();
                exchange.sendResponseHeaders(status == null ? 200 : status, -1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        url = "http://127.0.0.1:" + server.getAddress().getPort() + "/events";
    }

    @AfterEach
    void stopServer() {
        release.countDown();
        server.stop(0);
    }

    private EventForwarder forwarder(Map<String, Object> config) {
        return new WebhookEventForwarder.Provider().create("matchmaker", config, new ForwarderContext(time));
    }

    private static FleetEvent playerJoin() {
        return FleetEvent.room(FleetEvent.Type.PLAYER_EVENT, "pong", "room-1", Instant.parse("2026-01-01T00:00:05Z"),
                Map.of("event", "playerJoin", "playerId", "sime"));
    }

    @Test
    void postsTheEventAsJsonWithTheConfiguredHeadersAndMetadata() throws Exception {
        EventForwarder webhook = forwarder(Map.of("url", url, "headers", Map.of("Authorization", "Bearer s3cret"),
                "metadata", Map.of("roomType", "10")));

        webhook.forwardAsync(playerJoin()).get(1, TimeUnit.MINUTES);

        assertThat(webhook.name()).isEqualTo("webhook/matchmaker");
        assertThat(received).hasSize(1);
        Received request = received.get(0);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.headers().get("Authorization")).containsExactly("Bearer s3cret");
        assertThat(request.headers().get("Content-type")).containsExactly("application/json; charset=utf-8");
        JsonNode body = request.body();
        assertThat(body.path("type").asString()).isEqualTo("PLAYER_EVENT");
        assertThat(body.path("scheduler").asString()).isEqualTo("pong");
        assertThat(body.path("room").asString()).isEqualTo("room-1");
        assertThat(body.path("at").asString()).isEqualTo("2026-01-01T00:00:05Z");
        assertThat(body.path("timestamp").asLong()).isEqualTo(1767225605L);
        assertThat(body.path("metadata").path("event").asString()).isEqualTo("playerJoin");
        assertThat(body.path("metadata").path("playerId").asString()).isEqualTo("sime");
        assertThat(body.path("forwarder").toString()).isEqualTo("{\"name\":\"matchmaker\",\"metadata\":{\"roomType\":\"10\"}}");
    }

    @Test
    void failedAttemptsAreRetriedWithBackoffOnTheFleetsScheduler() throws Exception {
        answers.add(503);
        answers.add(500);
        EventForwarder webhook = forwarder(Map.of("url", url));

        CompletableFuture<Void> done = webhook.forwardAsync(playerJoin());
        await().atMost(1, TimeUnit.MINUTES).until(() -> received.size() == 1 && time.pendingCount() == 1);
        assertThat(done).isNotDone();
        assertThat(time.nextDueTime()).contains(time.now().plusMillis(500));
        time.advanceBy(Duration.ofMillis(500));

        await().atMost(1, TimeUnit.MINUTES).until(() -> received.size() == 2 && time.pendingCount() == 1);
        assertThat(time.nextDueTime()).as("the backoff doubles").contains(time.now().plusSeconds(1));
        time.advanceBy(Duration.ofSeconds(1));

        done.get(1, TimeUnit.MINUTES);
        assertThat(received).hasSize(3);
    }

    @Test
    void afterTheLastRetryTheFailureNamesTheForwarderTheUrlAndTheStatusButNoSecret() {
        for (int i = 0; i < 3; i++) {
            answers.add(502);
        }
        EventForwarder webhook = forwarder(Map.of("url", url.replace("http://", "http://user:pw@") + "?token=t",
                "retries", 2, "headers", Map.of("Authorization", "Bearer s3cret")));

        CompletableFuture<Void> done = webhook.forwardAsync(playerJoin());
        for (int attempt = 1; attempt <= 2; attempt++) {
            int seen = attempt;
            await().atMost(1, TimeUnit.MINUTES).until(() -> received.size() == seen && time.pendingCount() == 1);
            time.advanceTo(time.nextDueTime().orElseThrow());
        }

        assertThatThrownBy(() -> done.get(1, TimeUnit.MINUTES)).isInstanceOf(ExecutionException.class)
                .cause().hasMessage("webhook/matchmaker: POST " + url + " answered 502 after 3 attempts")
                .hasMessageNotContaining("s3cret").hasMessageNotContaining("pw").hasMessageNotContaining("token");
        assertThat(received).hasSize(3);
    }

    @Test
    void aClientErrorIsNotRetried() {
        answers.add(400);
        CompletableFuture<Void> done = forwarder(Map.of("url", url)).forwardAsync(playerJoin());
        assertThatThrownBy(() -> done.get(1, TimeUnit.MINUTES)).cause()
                .hasMessage("webhook/matchmaker: POST " + url + " answered 400 after 1 attempt");
        assertThat(time.pendingCount()).isZero();
    }

    @Test
    void aServerThatDoesNotAnswerCostsABoundedQueueNeverABlockedCaller() throws Exception {
        hold = true;
        WebhookEventForwarder webhook = new WebhookEventForwarder("matchmaker", URI.create(url), Duration.ofMinutes(1), Map.of(),
                0, Map.of(), time, HttpClient.newHttpClient(), 3);
        List<CompletableFuture<Void>> pending = List.of(webhook.forwardAsync(playerJoin()), webhook.forwardAsync(playerJoin()),
                webhook.forwardAsync(playerJoin()));

        CompletableFuture<Void> dropped = webhook.forwardAsync(playerJoin());

        assertThat(dropped).isCompletedExceptionally();
        assertThatThrownBy(dropped::join).cause().hasMessageContaining("queue full (3 events waiting");
        assertThat(webhook.dropped()).isEqualTo(1);
        assertThat(pending).noneMatch(CompletableFuture::isDone);
        release.countDown();
        CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
        webhook.forwardAsync(playerJoin()).get(1, TimeUnit.MINUTES);
        assertThat(webhook.dropped()).as("room again once they were delivered").isEqualTo(1);
    }

    @Test
    void aWebhookWithoutAUsableUrlIsAProblemNamingTheField() {
        assertThatThrownBy(() -> forwarder(Map.of("url", "ftp://x/y"))).isInstanceOf(ValidationException.class)
                .hasMessageStartingWith("forwarders.webhook.matchmaker.url: bad value 'ftp://x/y'");
        assertThatThrownBy(() -> forwarder(Map.of())).isInstanceOf(ValidationException.class)
                .hasMessageContaining("forwarders.webhook.matchmaker.url");
    }
}
