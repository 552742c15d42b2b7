package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;

import dev.hotspare.fleetserver.FleetServiceSettings.Option;
import dev.hotspare.kubernetes.PodMemberDriver;
import dev.hotspare.testkit.servers.MockKubernetes;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Per-room tokens on Kubernetes, through the fabric8 mock API server: the server started from its flags (admin
 * tokens from a file, the room-token key from a file) writes one Secret per room pod, owned by the pod; the pod
 * reads it as {@code HOTSPARE_ROOM_TOKEN}; that token, and only it, lets the room report.
 */
class FleetServiceRoomTokensKubernetesTest {

    /** After the class, every request must be covered by docs/kubernetes-rbac.yaml (secrets: create). */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(Path.of("..", "docs", "kubernetes-rbac.yaml"));

    private static final String ADMIN = "k8s-admin-token-0123456789";
    private FleetService service;

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    private static KubernetesClient newClient() {
        return kube.server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory()));
    }

    @Test
    void eachRoomPodGetsItsOwnTokenFromASecretAndOnlyThatTokenSpeaksForIt(@TempDir Path dir) throws IOException {
        Path tokens = Files.writeString(dir.resolve("admin-tokens"), "# rotated 2026-11\n\n" + ADMIN + "\nnext-admin-token-abcdefghij\n");
        byte[] keyBytes = new byte[48];
        new java.security.SecureRandom().nextBytes(keyBytes);
        Path key = Files.writeString(dir.resolve("room-key"), Base64.getEncoder().encodeToString(keyBytes) + "\n");
        FleetServiceSettings settings = FleetServiceSettings.parse(Map.of(Option.PORT, "0", Option.KUBERNETES, "true",
                Option.ADMIN_TOKEN_FILE, tokens.toString(), Option.ROOM_TOKEN_KEY_FILE, key.toString()), Map.of());
        assertThat(settings.security().adminTokens()).hasSize(2);
        assertThat(settings.toString()).doesNotContain(ADMIN).doesNotContain(Base64.getEncoder().encodeToString(keyBytes));
        service = settings.open(FleetServiceRoomTokensKubernetesTest::newClient, b -> b.fleetSettings(FleetSettings.builder().syncPeriod(Duration.ofMillis(200))
                .pollInterval(Duration.ofMillis(100)).build()).autoscaler(TestRooms.fastAutoscaler())).start();
        Http anonymous = new Http(service.port());
        Http admin = anonymous.withToken(ADMIN);
        String scheduler = "tok-" + Long.toString(java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000_000), 36);
        assertThat(admin.post("/scheduler", "name: " + scheduler + "\ngame: pong\nimage: pong:1\nautoscaling:\n  min: 2\n").status())
                .isEqualTo(201);

        await().atMost(Duration.ofSeconds(30)).until(() -> kube.fixture.pods().inNamespace(scheduler).list().getItems().size() == 2
                && kube.fixture.secrets().inNamespace(scheduler).list().getItems().size() == 2);
        List<Pod> pods = kube.fixture.pods().inNamespace(scheduler).list().getItems();
        Pod pod = pods.get(0);
        String room = pod.getMetadata().getName();
        String other = pods.get(1).getMetadata().getName();

        // The pod reads its token from its own Secret, which the pod owns (so it goes with the pod).
        EnvVar variable = pod.getSpec().getContainers().get(0).getEnv().stream()
                .filter(e -> e.getName().equals(PodMemberDriver.ROOM_TOKEN_VARIABLE)).findFirst().orElseThrow();
        assertThat(variable.getValue()).isNull();
        assertThat(variable.getValueFrom().getSecretKeyRef().getName()).isEqualTo(PodMemberDriver.tokenSecretName(room));
        assertThat(variable.getValueFrom().getSecretKeyRef().getKey()).isEqualTo(PodMemberDriver.ROOM_TOKEN_KEY);
        Secret secret = kube.fixture.secrets().inNamespace(scheduler).withName(PodMemberDriver.tokenSecretName(room)).get();
        assertThat(secret.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo(room));
        String token = secret.getStringData() != null && secret.getStringData().containsKey(PodMemberDriver.ROOM_TOKEN_KEY)
                ? secret.getStringData().get(PodMemberDriver.ROOM_TOKEN_KEY)
                : new String(Base64.getDecoder().decode(secret.getData().get(PodMemberDriver.ROOM_TOKEN_KEY)), StandardCharsets.UTF_8);
        assertThat(service.roomToken(scheduler, room)).contains(token);
        String otherToken = service.roomToken(scheduler, other).orElseThrow();

        String ping = "/scheduler/" + scheduler + "/rooms/" + room + "/ping";
        String body = "{\"timestamp\":" + Instant.now().getEpochSecond() + ",\"status\":\"ready\"}";
        assertThat(anonymous.put(ping, body).status()).isEqualTo(401);
        assertThat(anonymous.withToken(otherToken).put(ping, body).status()).isEqualTo(401);
        assertThat(admin.put(ping, body).status()).isEqualTo(403);
        Http.Answer own = anonymous.withToken(token).put(ping, body);
        assertThat(own.status()).as(own.raw()).isEqualTo(200);
        // The second admin token of the file works too (rotation).
        assertThat(anonymous.withToken("next-admin-token-abcdefghij").get("/scheduler/" + scheduler).status()).isEqualTo(200);
    }

    @Test
    void withKubernetesAndAuthenticationTheRoomTokenKeyIsRequiredAndTokensAreNeverShown(@TempDir Path dir) throws IOException {
        Path tokens = Files.writeString(dir.resolve("admin-tokens"), "short\n" + ADMIN + "\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> FleetServiceSettings.parse(Map.of(Option.KUBERNETES, "true",
                        Option.ADMIN_TOKEN_FILE, tokens.toString()), Map.of()))
                .isInstanceOfSatisfying(dev.hotspare.validation.ValidationException.class, e -> assertThat(e.problems())
                        .extracting(dev.hotspare.validation.Problem::describe).containsExactly(
                                "--admin-token-file line 1: bad value '<redacted, 5 characters>': an admin token must be at least 16 "
                                        + "characters with no white space",
                                "--room-token-key-file: bad value '<missing>': with --kubernetes and authentication on, every "
                                        + "instance needs the same room-token key: give a file holding at least 32 bytes"));
    }
}
