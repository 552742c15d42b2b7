package dev.hotspare.fleet.runtime.forwarding;

import com.sun.net.httpserver.HttpServer;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.events.EventDispatcher;
import dev.hotspare.fleet.runtime.FleetFixture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Player events go to the forwarders the scheduler's config names (here a webhook on a real local HTTP server);
 * {@code forwardResponse: true} makes the caller see a failed delivery; a stuck webhook never holds a ping.
 */
class PlayerEventsTest {

    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile int status = 200;
    private volatile boolean hold;
    private HttpServer server;
    private FleetFixture f;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/events", exchange -> {
            try (exchange) {
                bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                if (hold) {
                    release.await();
                }
                exchange.sendResponseHeaders(status, -1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        server.start();
        f = new FleetFixture();
    }

    @AfterEach
    void stop() {
        release.countDown();
        f.close();
        server.stop(0);
    }

    private void scheduler(boolean forwardResponse) {
        f.create("""
                name: pong
                game: pong
                image: pong:1
                autoscaling: {min: 1}
                forwarders:
                  webhook:
                    matchmaker:
                      enabled: true
                      forwardResponse: %s
                      url: http://127.0.0.1:%d/events
                      retries: 0
                """.formatted(forwardResponse, server.getAddress().getPort()));
        f.fleet().start();
        f.advance(Duration.ofSeconds(10));   // the watcher's first tick registers the scheduler's forwarders
    }

    private CompletableFuture<List<EventDispatcher.Delivery>> playerJoin() {
        return f.fleet().rooms().playerEvent("pong", "room-1", "playerJoin", f.now(), Map.of("playerId", "sime"));
    }

    @Test
    void aPlayerEventReachesTheWebhook() throws Exception {
        scheduler(true);
        assertThat(playerJoin().get(1, TimeUnit.MINUTES)).isEmpty();
        await().atMost(1, TimeUnit.MINUTES).until(() -> bodies.stream().anyMatch(b -> b.contains("\"PLAYER_EVENT\"")));
        String event = bodies.stream().filter(b -> b.contains("\"PLAYER_EVENT\"")).findFirst().orElseThrow();
        assertThat(event).contains("\"room\":\"room-1\"").contains("\"event\":\"playerJoin\"").contains("\"playerId\":\"sime\"");
    }

    @Test
    void withForwardResponseTheCallerSeesTheForwardersFailure() throws Exception {
        scheduler(true);
        status = 500;
        List<EventDispatcher.Delivery> failed = playerJoin().get(1, TimeUnit.MINUTES);
        assertThat(failed).singleElement().satisfies(d -> {
            assertThat(d.forwarder()).isEqualTo("webhook/matchmaker");
            assertThat(d.error()).contains("webhook/matchmaker: POST http://127.0.0.1:" + server.getAddress().getPort()
                    + "/events answered 500 after 1 attempt");
        });
    }

    @Test
    void withoutForwardResponseNobodyWaitsForTheForwarder() {
        scheduler(false);
        hold = true;
        assertThat(playerJoin()).as("answered at once, whatever the webhook does").isCompletedWithValue(List.of());
    }

    @Test
    void aStuckWebhookNeverHoldsAPing() {
        scheduler(false);
        hold = true;
        String room = f.rooms().get(0);
        f.advance(Duration.ofSeconds(5));
        for (int i = 0; i < 20; i++) {
            f.report(room, i % 2 == 0 ? RoomStatus.OCCUPIED : RoomStatus.READY);
            f.advance(Duration.ofSeconds(1));
        }
        // Every report was applied while the webhook has answered nothing.
        assertThat(f.fleet().roomStatusStore().room("pong", room).orElseThrow().status()).isEqualTo(RoomStatus.READY);
        await().atMost(1, TimeUnit.MINUTES).until(() -> !bodies.isEmpty());
        release.countDown();
        await().atMost(1, TimeUnit.MINUTES).until(() -> bodies.stream().filter(b -> b.contains("ROOM_OCCUPIED")).count() == 10);
    }
}
