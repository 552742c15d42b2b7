package dev.hotspare.fleetserver;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.spi.Release;
import dev.hotspare.fleet.spi.Release.OperationStatus;
import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.redis.RedisLockStore;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.testkit.servers.TestPostgres;
import dev.hotspare.testkit.servers.TestRedis;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 26 §4 with a real process: the fleet server runs as a JVM of its own on embedded Redis, embedded PostgreSQL
 * and the fabric8 mock API server (CRUD mode, where no kubelet ever makes a pod ready, so a rolling update's chunk
 * stays in flight). SIGTERM arrives mid-release: the process exits 0 within its grace period, leaves no lease in
 * Redis, and leaves the release in progress in PostgreSQL; a second instance (in this JVM, on the same stores) takes
 * the scheduler over and brings the release to a terminal outcome once its rooms start.
 *
 * <p>Two cases: nobody waits for the update (no request in flight, so the release is handed over as soon as the
 * HTTP server has stopped, and the next owner completes it: v2.0 deployed); a client waits with {@code ?wait=true}
 * (the update is cancelled at half the grace period and rolls back, the rollback is handed over at nine tenths, and
 * the next owner completes the rollback: v2.0 canceled, the previous config deployed again as v3.0).
 */
class FleetServerSigtermHandoverTest {

    private static final Pattern LISTENING = Pattern.compile("fleet-service listening on http://127\\.0\\.0\\.1:(\\d+)");
    /** Generous bounds for a busy machine; the shutdown itself is bounded by {@link #GRACE_SECONDS}. */
    private static final Duration PATIENCE = Duration.ofSeconds(90);
    private static final int GRACE_SECONDS = 8;

    @RegisterExtension
    static final MockKubernetes kube = new MockKubernetes();

    private final String scheduler = "sig-" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36);
    private final String victim = "victim-" + scheduler;

    private String config(String image) {
        return """
                name: %s
                game: pong
                image: %s
                ports:
                  - containerPort: 7777
                    protocol: UDP
                    name: game
                autoscaling:
                  min: 2
                  max: 4
                """.formatted(scheduler, image);
    }

    @ParameterizedTest(name = "a client waits for the update: {0}")
    @ValueSource(booleans = {false, true})
    void sigtermMidReleaseExitsInItsGracePeriodLeavesNoLeaseAndTheNextInstanceEndsTheRelease(boolean clientWaits, @TempDir Path dir)
            throws IOException, InterruptedException {
        String schema = "hs_test_sigterm_" + scheduler.substring(4);
        String masterUrl = kube.client.getConfiguration().getMasterUrl();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = dir.resolve("output.txt");
        List<String> command = new ArrayList<>(List.of(java.toString(),
                // The program's own client configures itself from these (no kubeconfig, no service account).
                "-Dkubernetes.master=" + masterUrl, "-Dkubernetes.auth.tryKubeConfig=false",
                "-Dkubernetes.auth.tryServiceAccount=false", "-Dkubernetes.trust.certificates=true",
                "-Dkubernetes.http2.disable=true", "-Dkubernetes.namespace=default",
                "-cp", System.getProperty("java.class.path"), FleetServerMain.class.getName(),
                "--port", "0", "--redis-uri", TestRedis.uri(), "--jdbc-url", TestPostgres.jdbcUrl(),
                "--jdbc-schema", schema, "--kubernetes", "--insecure-no-auth", "--instance-id", victim,
                "--shutdown-timeout", String.valueOf(GRACE_SECONDS),
                // The first rooms come at the first tick: one second, not Maestro's ten, keeps the test short.
                "--autoscale-interval", "1"));
        // Output goes to a file: reading a process's pipe while it exits can fail with "Stream closed".
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        RedisClient redis = RedisClient.create(TestRedis.uri());
        FleetService next = null;
        SimulatedRooms rooms = null;
        try (StatefulRedisConnection<String, String> connection = redis.connect()) {
            RedisLockStore leases = new RedisLockStore(connection);
            await().atMost(PATIENCE).until(() -> !process.isAlive() || LISTENING.matcher(Files.readString(output)).find());
            Matcher m = LISTENING.matcher(Files.readString(output));
            assertThat(m.find()).as(Files.readString(output)).isTrue();
            Http http = new Http(Integer.parseInt(m.group(1)));

            // v1: its rooms are pods that stay Pending, which matters to no one until a release waits for them.
            Http.Answer created = http.post("/scheduler", config("pong:1"));
            assertThat(created.status()).as(created.raw()).isEqualTo(201);
            await().atMost(PATIENCE).until(() -> kube.fixture.pods().inNamespace(scheduler).list().getItems().size() >= 2);
            // v2: its first chunk's pods never become ready, so the release is in flight when SIGTERM arrives.
            CompletableFuture<Http.Answer> update = CompletableFuture.supplyAsync(() ->
                    http.put("/scheduler/" + scheduler + (clientWaits ? "?wait=true" : ""), config("pong:2")));
            if (!clientWaits) {
                assertThat(update.join().status()).as(update.join().raw()).isEqualTo(200);
            }
            await().atMost(PATIENCE).until(() -> kube.fixture.pods().inNamespace(scheduler).list().getItems().stream()
                    .anyMatch(p -> "pong:2".equals(p.getSpec().getContainers().get(0).getImage())));
            assertThat(leasesOf(leases)).as("the running instance holds the scheduler's leases").isNotEmpty();

            process.destroy(); // SIGTERM
            await().atMost(PATIENCE).until(() -> !process.isAlive());
            String all = Files.readString(output);
            assertThat(process.exitValue()).as(all).isZero();
            assertThat(all).contains("fleet-service stopped");
            if (clientWaits) {
                // The waiting client was answered before the process ended: its update was cancelled and rolls back.
                Http.Answer answer = update.exceptionally(e -> {
                    throw new AssertionError("the waiting client got no answer\n" + all, e);
                }).join();
                assertThat(answer.status()).as(answer.raw()).isEqualTo(500);
                assertThat(answer.raw()).contains("UPDATE_CANCELED");
                assertThat(all).contains("cancelling the rolling updates still running", "handing what still runs over");
            }
            assertThat(leasesOf(leases)).as("no lease left behind by the stopped instance\n" + all).isEmpty();

            // The next instance on the same Redis + PostgreSQL + API server takes the scheduler over and, once the
            // rooms start (the simulated kubelet below), brings the handed-over release to its end.
            FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(Option.PORT, "0", Option.REDIS_URI, TestRedis.uri(),
                    Option.JDBC_URL, TestPostgres.jdbcUrl(), Option.JDBC_SCHEMA, schema, Option.KUBERNETES, "true",
                    Option.INSECURE_NO_AUTH, "true", Option.AUTOSCALE_INTERVAL, "1"), Map.of());
            FleetService started = settings.open(FleetServerSigtermHandoverTest::newClient, b -> b
                    .fleetSettings(settings.fleet().toBuilder().syncPeriod(Duration.ofMillis(300))
                            .pollInterval(Duration.ofMillis(200)).build())).start();
            next = started;
            List<Release> handedOver = started.operations().releases(scheduler);
            assertThat(handedOver).as("the release was left in progress for the next owner").extracting(Release::status)
                    .containsExactlyElementsOf(clientWaits
                            ? List.of(OperationStatus.DEPLOYED, OperationStatus.CANCELED, OperationStatus.IN_PROGRESS)
                            : List.of(OperationStatus.DEPLOYED, OperationStatus.IN_PROGRESS));
            rooms = new SimulatedRooms(kube.fixture, scheduler, new Http(started.port()));
            await().atMost(PATIENCE).until(() -> started.operations().releases(scheduler).stream()
                    .noneMatch(r -> r.status() == OperationStatus.IN_PROGRESS));
            List<Release> ended = started.operations().releases(scheduler);
            assertThat(ended).extracting(Release::status).containsExactlyElementsOf(clientWaits
                    ? List.of(OperationStatus.DEPLOYED, OperationStatus.CANCELED, OperationStatus.DEPLOYED)
                    : List.of(OperationStatus.DEPLOYED, OperationStatus.DEPLOYED));
            // Every pod of the scheduler now runs the version the release ended on.
            String image = clientWaits ? "pong:1" : "pong:2";
            await().atMost(PATIENCE).until(() -> kube.fixture.pods().inNamespace(scheduler).list().getItems().stream()
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null)
                    .allMatch(p -> image.equals(p.getSpec().getContainers().get(0).getImage())));
        } finally {
            process.destroyForcibly();
            if (rooms != null) {
                rooms.close();
            }
            if (next != null) {
                next.close();
            }
            redis.shutdown();
        }
    }

    /** The leases naming this test's scheduler or the stopped instance (the shared Redis holds other tests' too). */
    private List<Lease> leasesOf(RedisLockStore leases) {
        return leases.list("").stream().filter(l -> l.key().contains(scheduler) || l.key().contains(victim)).toList();
    }

    private static KubernetesClient newClient() {
        return kube.server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory())
                .editOrNewConfig().withHttp2Disable(true).endConfig());
    }
}
