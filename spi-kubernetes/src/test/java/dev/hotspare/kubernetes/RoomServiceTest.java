package dev.hotspare.kubernetes;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.fleet.SchedulerConfig.EnvVar;
import dev.hotspare.fleet.SchedulerConfig.Port;
import dev.hotspare.fleet.SchedulerConfig.Quantity;
import dev.hotspare.fleet.SchedulerConfig.Resources;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.testkit.servers.MockKubernetes;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** What a room pod is made of, its NodePort service, and the address route. */
class RoomServiceTest {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);
    private PodMemberDriver driver;

    @AfterEach
    void closeDriver() {
        driver.close();
    }

    private static SchedulerConfig pong() {
        return new SchedulerConfig("pong", "pong-game", "pong:2.1", Optional.of("game-node"), Optional.of("dedicated"),
                Optional.empty(), List.of(new Port(7777, Port.Protocol.UDP, "game"), new Port(8080, Port.Protocol.TCP, "http")),
                new Resources(Optional.of(Quantity.parse("500m")), Optional.of(Quantity.parse("512Mi"))),
                new Resources(Optional.of(Quantity.parse("1")), Optional.empty()), Optional.of(45L), Autoscaling.NONE,
                List.of(new EnvVar("MODE", "ranked")), List.of("/pong", "--headless"), Map.of());
    }

    @Test
    void aRoomPodCarriesTheSchedulerConfig() {
        driver = PodMemberDriver.builder(kube.client, RoomTemplates.registry().register("v2", pong())).build();
        Member room = driver.create("pong", "v2", DesiredPower.RUNNING);

        Pod pod = kube.fixture.pods().inNamespace("pong").withName(room.id()).get();
        var container = pod.getSpec().getContainers().get(0);
        assertThat(container.getImage()).isEqualTo("pong:2.1");
        assertThat(container.getCommand()).containsExactly("/pong", "--headless");
        assertThat(container.getEnv()).singleElement().satisfies(e -> assertThat(e.getName() + "=" + e.getValue()).isEqualTo("MODE=ranked"));
        assertThat(container.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort() + "/" + p.getProtocol())
                .containsExactly("game:7777/UDP", "http:8080/TCP");
        assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(container.getResources().getRequests().get("cpu").toString()).isEqualTo("500m");
        assertThat(container.getResources().getLimits().get("cpu").toString()).isEqualTo("1");
        assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(45L);
        var preferred = pod.getSpec().getAffinity().getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution();
        assertThat(preferred).singleElement().satisfies(t -> {
            assertThat(t.getPreference().getMatchExpressions().get(0).getKey()).isEqualTo("game-node");
            assertThat(t.getPreference().getMatchExpressions().get(0).getValues()).containsExactly("true");
        });
        assertThat(pod.getSpec().getTolerations()).singleElement()
                .satisfies(t -> assertThat(t.getKey() + "=" + t.getValue() + ":" + t.getEffect()).isEqualTo("dedicated=true:NoSchedule"));
        assertThat(pod.getMetadata().getLabels()).containsEntry(Kube.POOL, "pong").containsEntry(Kube.MEMBER, room.id())
                .containsEntry(Kube.TEMPLATE_VERSION, "v2");
        assertThat(kube.fixture.namespaces().withName("pong").get().getMetadata().getLabels()).containsEntry(Kube.MANAGED_BY, Kube.MANAGER);
    }

    @Test
    void schedulerVersionsAreTemplateVersions() {
        // SchedulerOperations and the watcher create rooms at the scheduler version, e.g. v1.0: a label value
        // (dots allowed), not a DNS-1123 label.
        driver = PodMemberDriver.builder(kube.client, RoomTemplates.registry().register("v1.0", pong())).build();
        Member room = driver.create("pong", "v1.0", DesiredPower.RUNNING);
        assertThat(kube.fixture.pods().inNamespace("pong").withName(room.id()).get().getMetadata().getLabels())
                .containsEntry(Kube.TEMPLATE_VERSION, "v1.0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RoomTemplates.registry().register("v1 .0", pong()))
                .isInstanceOf(dev.hotspare.validation.ValidationException.class).hasMessageContaining("v1 .0");
    }

    @Test
    void withServicesEachRoomGetsANodePortServiceAndAnAddress() {
        driver = PodMemberDriver.builder(kube.client, RoomTemplates.registry().register("v2", pong()))
                .namespacePrefix("rooms-").nodePortServices(true).build();
        Member room = driver.create("pong", "v2", DesiredPower.RUNNING);
        assertThat(driver.address("pong", room.id())).as("not scheduled yet").isEmpty();

        Service service = kube.fixture.services().inNamespace("rooms-pong").withName(room.id()).get();
        assertThat(service.getSpec().getType()).isEqualTo("NodePort");
        assertThat(service.getSpec().getSelector()).containsEntry(Kube.MEMBER, room.id());
        assertThat(service.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> assertThat(o.getName()).isEqualTo(room.id()));

        // Play the scheduler and the service controller: place the pod, assign node ports.
        kube.fixture.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
                .withNewStatus().addNewAddress().withType("InternalIP").withAddress("10.0.0.5").endAddress()
                .addNewAddress().withType("ExternalIP").withAddress("203.0.113.7").endAddress().endStatus().build()).create();
        Pod pod = kube.fixture.pods().inNamespace("rooms-pong").withName(room.id()).get();
        kube.fixture.pods().inNamespace("rooms-pong").resource(new PodBuilder(pod).editSpec().withNodeName("node-1").endSpec().build()).update();
        ServiceBuilder withPorts = new ServiceBuilder(service);
        withPorts.editSpec().editMatchingPort(p -> "game".equals(p.getName())).withNodePort(30777).endPort()
                .editMatchingPort(p -> "http".equals(p.getName())).withNodePort(30080).endPort().endSpec();
        kube.fixture.services().inNamespace("rooms-pong").resource(withPorts.build()).update();

        assertThat(driver.address("pong", room.id())).contains(new RoomAddress("203.0.113.7", Map.of("game", 30777, "http", 30080)));
    }
}
