package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import dev.hotspare.fleet.ConfigDocument;
import dev.hotspare.fleet.lock.Fence;
import dev.hotspare.fleet.plan.ReleaseState.ReleasePhase;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleet.versions.SchedulerVersion;
import dev.hotspare.memory.InMemoryLockStore;
import dev.hotspare.memory.InMemoryMemberDriver;
import dev.hotspare.memory.InMemorySchedulerStore;
import dev.hotspare.time.TaskScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a hostile client, a careless user and a shutdown in the middle of an operation do to the real fleet
 * service over HTTP: no count can make it run out of memory (422 naming field, value and limit, and it still
 * answers), input that would break a worker later is refused up front, and SIGTERM-style close lets a running
 * update roll back, answers its client, releases its locks and leaves the rollback to the next instance; a release a
 * crashed owner of an older version left is marked INTERRUPTED.
 */
class FleetServiceHardeningTest {

    private static final String PONG = """
            name: pong
            game: pong
            image: pong:1
            autoscaling:
              min: 2
            """;

    private final List<ScheduledThreadPoolExecutor> executors = new ArrayList<>();
    private final List<FleetService> services = new ArrayList<>();

    /** Fast periods for tests. */
    private static final FleetSettings FAST = FleetSettings.builder().syncPeriod(Duration.ofMillis(100)).pollInterval(Duration.ofMillis(20)).build();

    private FleetService start(Consumer<FleetService.Builder> tuning) {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2);
        executors.add(executor);
        FleetService.Builder builder = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC())).insecureNoAuth()
                .fleetSettings(FAST).autoscaler(TestRooms.fastAutoscaler());
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

    private static void assertError(Http.Answer answer, int status, String code, String description) {
        assertThat(answer.status()).as(answer.raw()).isEqualTo(status);
        assertThat(answer.body().path("code").asString()).as(answer.raw()).isEqualTo(code);
        assertThat(answer.body().path("description").asString()).as(answer.raw()).contains(description);
        assertThat(answer.maestroVersion()).isEqualTo(FleetService.DEFAULT_API_VERSION);
        assertThat(answer.raw()).doesNotContain("Exception", "java.");
    }

    // --- 1. one request never takes the service down -----------------------------------------------------------

    @Test
    void hugeCountsAreRefusedNamingFieldValueAndLimitAndTheServiceKeepsAnswering() {
        Http http = new Http(start(b -> { }).port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);

        assertError(http.post("/scheduler/pong", "{\"scaleup\": 2147483647}"), 422, "INVALID_CONFIG",
                "scaleup: bad value '2147483647': must be at most 1000 (the limit of rooms per scale step)");
        assertError(http.post("/scheduler/pong", "{\"replicas\": 2147483647}"), 422, "INVALID_CONFIG",
                "replicas: bad value '2147483647': must be at most 10000 (the limit of rooms per scheduler)");
        assertError(http.post("/scheduler/pong", "{\"scaledown\": 2147483647}"), 422, "INVALID_CONFIG",
                "scaledown: bad value '2147483647': must be at most 1000 (the limit of rooms per scale step)");
        assertError(http.put("/scheduler/pong/min", "{\"min\": 2147483647}"), 422, "INVALID_CONFIG",
                "autoscaling.min: bad value '2147483647': must be at most 10000 (the limit of rooms per scheduler)");
        assertError(http.post("/scheduler", PONG.replace("pong", "big").replace("min: 2", "min: 2147483647")), 422, "INVALID_CONFIG",
                "autoscaling.min: bad value '2147483647': must be at most 10000");

        assertThat(http.get("/healthcheck").status()).isEqualTo(200);
        assertThat(http.get("/scheduler/pong").status()).isEqualTo(200);
    }

    @Test
    void theLimitsAreConfigurableAndAScaleUpWithinThemIsCreatedInSteps() {
        Http http = new Http(start(b -> b.fleetSettings(FAST.toBuilder()
                .limits(dev.hotspare.fleet.SchedulerConfig.FleetLimits.DEFAULT.withMaxRooms(40).withMaxScaleStep(10)).build())).port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        assertError(http.post("/scheduler/pong", "{\"scaleup\": 11}"), 422, "INVALID_CONFIG",
                "scaleup: bad value '11': must be at most 10 (the limit of rooms per scale step)");
        assertThat(http.post("/scheduler/pong", "{\"replicas\": 35}").status()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(20)).until(() -> services.get(0).memberDriver().list("pong").size() == 35);
        assertError(http.post("/scheduler/pong", "{\"scaleup\": 10}"), 422, "INVALID_CONFIG",
                "scaleup: bad value '10': would make 45 rooms; the limit of rooms per scheduler is 40");
    }

    // --- 5. input that means something else, or breaks a worker later -----------------------------------------

    @Test
    void reportTimestampsInMillisecondsOrFromTheFutureAreRefused() {
        Http http = new Http(start(b -> { }).port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        // A room the driver has (a report for any other is 404 before its body's values are checked).
        String room = TestRooms.awaitRooms(services.get(0), "pong", 1).get(0);
        long now = Instant.now().getEpochSecond();
        assertError(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\": " + now * 1000 + ", \"status\": \"ready\"}"),
                422, "INVALID_ARGUMENT", "(this looks like milliseconds)");
        assertError(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\": 1000000000000000, \"status\": \"ready\"}"),
                422, "INVALID_ARGUMENT", "timestamp: bad value '1000000000000000': must be seconds since the epoch");
        assertError(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\": -5, \"status\": \"ready\"}"),
                422, "INVALID_ARGUMENT", "timestamp: bad value '-5'");
        assertError(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\": " + (now + 3600) + ", \"status\": \"ready\"}"),
                422, "INVALID_ARGUMENT", "is more than 60s ahead of the server's clock");
        // A correct report is still accepted: nothing was pinned by the refused ones.
        assertThat(http.put("/scheduler/pong/rooms/" + room + "/ping", "{\"timestamp\": " + now + ", \"status\": \"ready\"}").status()).isEqualTo(200);
    }

    @Test
    void configsThatWouldFailTheWorkerOnEveryTickAreRefused() {
        Http http = new Http(start(b -> { }).port());
        assertError(http.post("/scheduler", PONG + "occupiedTimeout: 9223372036854775807\n"), 422, "INVALID_CONFIG",
                "occupiedTimeout: bad value '9223372036854775807': must be at most 604800 seconds");
        assertError(http.post("/scheduler", PONG.replace("min: 2", """
                min: 2
                  up:
                    metricsTrigger: [{type: room, usage: 50, threshold: 50, time: 9223372036854775807}]""")), 422, "INVALID_CONFIG",
                "autoscaling.up.metricsTrigger[0].time: bad value '9223372036854775807': must be at most 86400 seconds");
        assertError(http.post("/scheduler", PONG + "forwarders:\n  grpc:\n    matchmaker: {enabled: true}\n"), 422, "INVALID_CONFIG",
                "forwarders.grpc: bad value 'grpc': unknown forwarder plugin");
        assertError(http.post("/scheduler", PONG + "requests: {cpu: 1n}\n"), 422, "INVALID_CONFIG",
                "requests.cpu: bad value '1n': must be 0 or between 0.001 and 10000 cores");
        assertThat(http.get("/scheduler/pong").status()).isEqualTo(404);
    }

    @Test
    void yamlThatAReaderWouldUnderstandDifferentlyIsRefused() {
        Http http = new Http(start(b -> { }).port());
        assertError(http.post("/scheduler", "name: pong\ngame: &g pong\nimage: *g\n"), 400, "BAD_JSON", "is not accepted");
        assertError(http.post("/scheduler", PONG + "image: pong:2\n"), 400, "BAD_JSON", "Duplicate field 'image'");
        assertError(http.post("/scheduler", PONG + "---\nname: other\n"), 400, "BAD_JSON", "more than one document");
        assertError(http.post("/scheduler", "{\"name\":\"pong\",\"game\":\"pong\",\"image\":\"pong:1\"} trailing"), 400, "BAD_JSON", "");
        assertError(http.put("/scheduler/pong/rooms/r1/ping", "{\"timestamp\": 1, \"status\": \"ready\", \"status\": \"occupied\"}"),
                400, "BAD_JSON", "Duplicate field 'status'");
        assertThat(http.get("/scheduler/pong").status()).isEqualTo(404);
    }

    // --- 4. shutdown and restart in the middle of an operation -----------------------------------------------

    @Test
    void closeDuringAnUpdateRollsItBackAnswersTheClientReleasesItsLocksAndHandsTheRollbackToTheNextInstance() {
        InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
        InMemoryLockStore[] locks = new InMemoryLockStore[1];
        FleetService service = start(b -> {
            TaskScheduler tasks = TaskScheduler.system(executors.get(0), Clock.systemUTC());
            locks[0] = new InMemoryLockStore(tasks.clock());
            // New rooms never become ready: the update's rolling replace is still running when the service stops.
            b.schedulerStore(schedulers).lockStore(locks[0]).shutdownTimeout(Duration.ofSeconds(4))
                    .memberDriver(InMemoryMemberDriver.builder(tasks).installTime(Duration.ofHours(1)).build());
        });
        Http http = new Http(service.port());
        assertThat(http.post("/scheduler", PONG).status()).isEqualTo(201);
        await().atMost(Duration.ofSeconds(20)).until(() -> service.memberDriver().list("pong").size() == 2);

        CompletableFuture<Http.Answer> update = CompletableFuture.supplyAsync(() -> http.put("/scheduler/pong?wait=true", PONG.replace("pong:1", "pong:2")));
        await().atMost(Duration.ofSeconds(20)).until(() -> schedulers.releases("pong").size() == 2);
        service.close();

        Http.Answer answer = update.join();
        assertError(answer, 500, "UPDATE_CANCELED", "ended CANCELED; the previous config was saved again as v3.0");
        assertThat(locks[0].list("")).as("no lease left behind").isEmpty();
        // The rollback could not finish within the grace period: it is handed over, in progress, to the next owner.
        assertThat(schedulers.releases("pong")).extracting(Release::status)
                .containsExactly(OperationStatus.DEPLOYED, OperationStatus.CANCELED, OperationStatus.IN_PROGRESS);
        assertThat(schedulers.loadRelease("pong").orElseThrow().state().phase()).isEqualTo(ReleasePhase.ROLLING_BACK);

        start(b -> b.schedulerStore(schedulers).lockStore(locks[0]));
        await().atMost(Duration.ofSeconds(20)).until(() -> schedulers.loadRelease("pong").orElseThrow().state().terminal());
        assertThat(schedulers.loadRelease("pong").orElseThrow().state().phase()).isEqualTo(ReleasePhase.CANCELED);
        assertThat(schedulers.releases("pong")).extracting(Release::status)
                .containsExactly(OperationStatus.DEPLOYED, OperationStatus.CANCELED, OperationStatus.DEPLOYED);
    }

    @Test
    void releasesAreHandedOverAtNineTenthsOfTheGracePeriodButAtLeastThreePollsBeforeItsEnd() {
        long s = 1_000_000_000L;
        assertThat(FleetService.handoverAt(30 * s, s)).isEqualTo(27 * s); // the default: nine tenths
        assertThat(FleetService.handoverAt(8 * s, s)).isEqualTo(5 * s);   // three polls before the end
        assertThat(FleetService.handoverAt(4 * s, s)).isEqualTo(2 * s);   // never before the cancel at half
        assertThat(FleetService.handoverAt(4 * s, s / 10)).isEqualTo(36 * s / 10);
    }

    @Test
    void aReleaseLeftInProgressByACrashedOwnerIsMarkedInterruptedByTheNextInstance() {
        InMemorySchedulerStore schedulers = new InMemorySchedulerStore();
        Instant now = Instant.now();
        schedulers.create("pong", ConfigDocument.of(PONG), "in-sync", now);
        // What a crash in the middle of a rolling update leaves: v2.0 saved, its outcome never recorded.
        schedulers.saveVersion("pong", new SchedulerVersion(2, 0), ConfigDocument.of(PONG.replace("pong:1", "pong:2")), now,
                new Fence("scheduler.pong.config", 1));
        assertThat(schedulers.release("pong", new SchedulerVersion(2, 0))).map(Release::status).contains(OperationStatus.IN_PROGRESS);

        FleetService next = start(b -> b.schedulerStore(schedulers));
        await().atMost(Duration.ofSeconds(20)).until(() ->
                schedulers.release("pong", new SchedulerVersion(2, 0)).map(Release::status).orElseThrow() == OperationStatus.INTERRUPTED);
        assertThat(new Http(next.port()).put("/scheduler/pong", PONG.replace("pong:1", "pong:3")).status()).isEqualTo(200);
    }
}
