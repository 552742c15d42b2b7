package dev.hotspare.fleet.events;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.validation.ValidationException;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventDispatcherTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static FleetEvent ready(String room) {
        return FleetEvent.room(FleetEvent.Type.ROOM_READY, "pong", room, NOW);
    }

    private static EventForwarder forwarder(String name, ThrowingConsumer body) {
        return new EventForwarder() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void forward(FleetEvent event) throws Exception {
                body.accept(event);
            }
        };
    }

    @FunctionalInterface
    interface ThrowingConsumer {
        void accept(FleetEvent event) throws Exception;
    }

    @Test
    void aBlockedForwarderNeverBlocksThePublisher() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger delivered = new AtomicInteger();
        try (EventDispatcher dispatcher = EventDispatcher.builder().add(forwarder("slow", event -> {
            release.await();
            delivered.incrementAndGet();
        })).build()) {
            List<CompletableFuture<EventDispatcher.DeliveryReport>> reports = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                reports.add(dispatcher.publish(ready("room-" + i)));
            }
            // All 100 publishes returned while the forwarder is still stuck on the first event.
            assertThat(delivered).hasValue(0);
            assertThat(reports).noneMatch(CompletableFuture::isDone);

            release.countDown();
            CompletableFuture.allOf(reports.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
            assertThat(delivered).hasValue(100);
            assertThat(reports).allMatch(r -> r.join().deliveries().get(0).succeeded());
        }
    }

    @Test
    void aFailingForwarderIsReportedButOnlyOptedInFailuresCountAsResponses() {
        try (EventDispatcher dispatcher = EventDispatcher.builder()
                .add(forwarder("quiet", event -> { throw new IllegalStateException("down"); }))
                .add(forwarder("strict", event -> { throw new IllegalStateException("refused"); }), true)
                .add(forwarder("fine", event -> { }), true)
                .build()) {
            EventDispatcher.DeliveryReport report = dispatcher.publish(ready("r1")).join();

            assertThat(report.deliveries()).extracting(EventDispatcher.Delivery::succeeded).containsExactly(false, false, true);
            assertThat(report.failedResponses()).extracting(EventDispatcher.Delivery::forwarder).containsExactly("strict");
            assertThat(report.failedResponses().get(0).error()).hasValueSatisfying(e -> assertThat(e).contains("refused"));
        }
    }

    @Test
    void aFailureIsReportedInWordsNeverWithAClassName() {
        try (EventDispatcher dispatcher = EventDispatcher.builder()
                .add(forwarder("wrapped", event -> { throw new RuntimeException(new java.io.IOException("connection reset")); }), true)
                .add(forwarder("silent", event -> { throw new IllegalStateException(); }), true)
                .build()) {
            EventDispatcher.DeliveryReport report = dispatcher.publish(ready("r1")).join();

            assertThat(report.failedResponses()).extracting(d -> d.error().orElseThrow())
                    .containsExactly("connection reset", "the forwarder failed without a message");
        }
    }

    @Test
    void aFullQueueDropsAndCountsInsteadOfBlocking() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        ThreadPoolExecutor executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(1));
        try (EventDispatcher dispatcher = EventDispatcher.builder().executor(executor).add(forwarder("slow", event -> {
            started.countDown();
            release.await();
        })).build()) {
            dispatcher.publish(ready("a"));
            started.await();
            dispatcher.publish(ready("b"));
            EventDispatcher.DeliveryReport dropped = dispatcher.publish(ready("c")).join();

            assertThat(dispatcher.dropped()).isEqualTo(1);
            assertThat(dropped.deliveries().get(0).error()).hasValueSatisfying(e -> assertThat(e).contains("dropped"));
        } finally {
            release.countDown();
            executor.shutdown();
        }
    }

    @Test
    void anEventAForwardersOwnQueueRefusesIsCountedAsDroppedToo() {
        try (EventDispatcher dispatcher = EventDispatcher.builder().add(forwarder("full", event -> {
            throw new java.util.concurrent.RejectedExecutionException("full: queue full (1000 events waiting); event dropped");
        })).add(forwarder("broken", event -> {
            throw new IllegalStateException("broken");
        })).build()) {
            EventDispatcher.DeliveryReport report = dispatcher.publish(ready("a")).join();
            assertThat(dispatcher.dropped()).as("only the refused one is a drop; a failure is not").isEqualTo(1);
            assertThat(report.deliveries().get(0).error()).hasValueSatisfying(e -> assertThat(e).contains("event dropped"));
        }
    }

    @Test
    void forwardersComeFromTheConfigThroughServiceLoaderIncludingTheBuiltInLoggingOne() {
        ConfigDocument config = ConfigDocument.of("""
                forwarders:
                  logging:
                    audit: {enabled: true}
                    off: {enabled: false}
                  recording:
                    matchmaking: {forwardResponse: true, metadata: {roomType: "10"}}
                """);
        try (EventDispatcher dispatcher = EventDispatcher.builder()
                .addFromConfig(config.tree().get("forwarders"), getClass().getClassLoader()).build()) {
            assertThat(dispatcher.forwarderNames()).containsExactly("logging/audit", "recording/matchmaking{roomType=10}");

            EventDispatcher.DeliveryReport report = dispatcher.publish(ready("r1")).join();
            assertThat(report.failedResponses()).isEmpty();
            assertThat(RecordingForwarderProvider.RECEIVED).contains("matchmaking:ROOM_READY");
        }
    }

    @Test
    void unknownPluginsAreAllReportedWithTheKnownOnes() {
        ConfigDocument config = ConfigDocument.of("forwarders: {grpc: {matchmaking: {}}, grcp: {x: {}}}");

        assertThatThrownBy(() -> EventDispatcher.builder().addFromConfig(config.tree().get("forwarders"), getClass().getClassLoader()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("forwarders.grpc: bad value 'grpc': unknown forwarder plugin; known: logging, recording")
                .hasMessageContaining("forwarders.grcp");
    }
}
