package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import tools.jackson.databind.JsonNode;
import dev.hotspare.internal.HotspareVersion;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.time.TaskScheduler;
import dev.hotspare.time.VirtualTimeScheduler;
import dev.hotspare.time.VirtualTimeScheduler.VirtualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an operator of the fleet service relies on: config changes answer once saved and go on as operations that
 * can be listed, read and cancelled; {@code ?wait=true} answers when done; Prometheus metrics and structured KPIs;
 * the build's version on every answer; and a flood of requests answered 503 with {@code Retry-After} instead of
 * queueing on threads.
 */
class FleetServiceOperationsTest {

    private static final String PONG = """
            name: pong
            game: pong
            image: pong:1
            autoscaling:
              min: 2
            """;
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final List<ScheduledThreadPoolExecutor> executors = new ArrayList<>();
    private final List<FleetService> services = new ArrayList<>();

    private FleetService start(Consumer<FleetService.Builder> tuning) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2);
        executors.add(executor);
        FleetService.Builder builder = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC())).insecureNoAuth()
                .fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(100)).pollInterval(Duration.ofMillis(20)).build())
                .autoscaler(TestRooms.fastAutoscaler());
        tuning.accept(builder);
        FleetService service = builder.build().start();
        services.add(service);
        return service;
    }

    @AfterEach
    void stop() {
        services.forEach(FleetService::close);
        executors.forEach(ScheduledThreadPoolExecutor::shutdownNow);
    }

    @Test
    void anUpdateAnswersOnceSavedAndItsReplaceIsAnOperationThatCanBeReadAndCancelled() {
        // Rooms install on a clock of their own that only the test moves: the rolling replace stays in progress until
        // the test lets the rooms of the rollback become ready.
        VirtualTimeScheduler roomTime = new VirtualTimeScheduler(new VirtualClock(Clock.systemUTC().instant()));
        FleetService service = start(b -> b.memberDriver(InMemoryMemberDriver.builder(roomTime).installTime(Duration.ofHours(1)).build()));
        Http http = new Http(service.port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        await().atMost(PATIENCE).until(() -> service.memberDriver().list("pong").size() == 2);

        Http.Answer saved = http.put("/scheduler/pong", PONG.replace("pong:1", "pong:2"));
        assertThat(saved.status()).as(saved.raw()).isEqualTo(200);
        assertThat(saved.body().path("version").asString()).isEqualTo("v2.0");
        assertThat(saved.body().path("status").asString()).isEqualTo("in_progress");
        String id = saved.body().path("operationId").asString();
        assertThat(id).isNotBlank();

        JsonNode listed = http.get("/scheduler/pong/operations").body().path("operations");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).path("id").asString()).isEqualTo(id);
        assertThat(listed.get(0).path("kind").asString()).isEqualTo("update");
        assertThat(listed.get(0).path("requestedBy").asString()).startsWith("anonymous from 127.0.0.1");
        assertThat(http.get("/scheduler/pong/operations/" + id).body().path("status").asString()).isEqualTo("in_progress");

        Http.Answer cancelled = http.delete("/scheduler/pong/operations/" + id);
        assertThat(cancelled.status()).as(cancelled.raw()).isEqualTo(200);
        // Cancelled, the update rolls back (a new major with the old config); it ends once those rooms are ready.
        await().atMost(PATIENCE).until(() -> {
            roomTime.advanceBy(Duration.ofHours(1));
            return http.get("/scheduler/pong/operations/" + id).body().path("status").asString().equals("canceled");
        });
        JsonNode done = http.get("/scheduler/pong/operations/" + id).body();
        assertThat(done.path("finishedAt").asLong()).isPositive();

        Http.Answer again = http.delete("/scheduler/pong/operations/" + id);
        assertThat(again.status()).as(again.raw()).isEqualTo(409);
        assertThat(again.body().path("code").asString()).isEqualTo("OPERATION_FINISHED");
        Http.Answer unknown = http.get("/scheduler/pong/operations/nope");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.body().path("code").asString()).isEqualTo("OPERATION_NOT_FOUND");
    }

    @Test
    void waitTrueAnswersWhenTheReplaceIsDone() {
        FleetService service = start(b -> { });
        Http http = new Http(service.port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        await().atMost(PATIENCE).until(() -> service.memberDriver().list("pong").size() == 2);

        Http.Answer done = http.put("/scheduler/pong/image?wait=true", "{\"image\":\"pong:2\"}");
        assertThat(done.status()).as(done.raw()).isEqualTo(200);
        assertThat(done.body().path("status").asString()).isEqualTo("deployed");
        assertThat(TestRooms.versions(service, "pong")).containsOnly("v2.0");
    }

    @Test
    void metricsAreInThePrometheusFormatKpisAreDataAndEveryAnswerNamesTheBuild() {
        FleetService service = start(b -> { });
        Http http = new Http(service.port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        await().atMost(PATIENCE).until(() -> service.memberDriver().list("pong").size() == 2);

        await().atMost(PATIENCE).untilAsserted(() -> {
            Http.Answer metrics = http.get("/metrics");
            assertThat(metrics.status()).isEqualTo(200);
            assertThat(metrics.contentType()).startsWith("text/plain");
            assertThat(metrics.raw()).contains("# TYPE hotspare_scale_operations_total counter")
                    .contains("hotspare_scale_operations_total{operation=\"scale-up\",pool=\"pong\"} 1.0");
        });
        JsonNode meters = http.get("/kpis").body().path("meters");
        assertThat(meters).anySatisfy(m -> {
            assertThat(m.path("name").asString()).isEqualTo("hotspare.scale.members");
            assertThat(m.path("type").asString()).isEqualTo("counter");
            assertThat(m.path("tags").path("pool").asString()).isEqualTo("pong");
            assertThat(m.path("values").path("count").asDouble()).isEqualTo(2.0);
        });
        assertThat(HotspareVersion.current()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(http.get("/healthcheck").headers().firstValue("X-Hotspare-Version")).contains(HotspareVersion.current());
        assertThat(http.get("/nope").headers().firstValue("X-Hotspare-Version")).contains(HotspareVersion.current());
    }

    @Test
    void aFloodOfRequestsIsAnswered503WithRetryAfterWhileThreadsStayBounded() throws Exception {
        CountDownLatch entered = new CountDownLatch(4);
        CountDownLatch release = new CountDownLatch(1);
        // 8 threads serve 4 requests at once (FleetService.maxConcurrentRequests); the address lookup blocks them.
        FleetService service = start(b -> b.maxThreads(8).roomAddresses((scheduler, room) -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        }));
        assertThat(FleetService.maxConcurrentRequests(8)).isEqualTo(4);
        Http http = new Http(service.port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        await().atMost(PATIENCE).until(() -> service.memberDriver().list("pong").size() == 2);
        String room = service.memberDriver().list("pong").get(0).id();

        // Clients of their own: the common pool has one thread on two cores.
        ExecutorService clients = Executors.newFixedThreadPool(44);
        List<CompletableFuture<Http.Answer>> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(CompletableFuture.supplyAsync(() -> http.get("/scheduler/pong/rooms/" + room + "/address"), clients));
        }
        entered.await();
        List<CompletableFuture<Http.Answer>> flood = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            flood.add(CompletableFuture.supplyAsync(() -> http.get("/scheduler/pong"), clients));
        }
        for (CompletableFuture<Http.Answer> answer : flood) {
            Http.Answer busy = answer.join();
            assertThat(busy.status()).as(busy.raw()).isEqualTo(503);
            assertThat(busy.body().path("code").asString()).isEqualTo("UNAVAILABLE");
            assertThat(busy.headers().firstValue("Retry-After")).contains("1");
            assertThat(busy.raw()).doesNotContain("Exception", "java.");
        }
        // Probes are still served while the service is saturated.
        assertThat(http.get("/healthcheck").status()).isEqualTo(200);
        long httpThreads = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("fleet-http")).count();
        assertThat(httpThreads).as("the request pool never grows past its bound").isLessThanOrEqualTo(8);

        release.countDown();
        for (CompletableFuture<Http.Answer> answer : held) {
            assertThat(answer.join().status()).isEqualTo(200);
        }
        assertThat(http.get("/scheduler/pong").status()).isEqualTo(200);
        clients.shutdownNow();
    }

    @Test
    void theHealthcheckCoversKubernetesAndNamesTheFailedBackend() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String apiServer = "http://127.0.0.1:" + closedPort;
        FleetServiceSettings settings = FleetServiceSettings.parse(java.util.Map.of(FleetServiceSettings.Option.PORT, "0",
                FleetServiceSettings.Option.KUBERNETES, "true", FleetServiceSettings.Option.INSECURE_NO_AUTH, "true"), java.util.Map.of());
        FleetService service = settings.open(() -> new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder().withMasterUrl(apiServer).withRequestRetryBackoffLimit(0).build())
                .withHttpClientFactory(new io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory()).build(), b -> { }).start();
        services.add(service);
        Http.Answer health = new Http(service.port()).get("/healthcheck");
        assertThat(health.status()).isEqualTo(500);
        assertThat(health.body().toString()).isEqualTo("{\"healthy\":false,\"failed\":[\"kubernetes\"]}");
    }
}
