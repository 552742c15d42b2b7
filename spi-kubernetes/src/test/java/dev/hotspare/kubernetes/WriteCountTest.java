package dev.hotspare.kubernetes;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.SchedulerConfig.Autoscaling;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.time.VirtualTimeScheduler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Counts the writes the drivers send, from the mock API server's request log: a create is one write, a
 * reconcile at steady state writes nothing, and moving runningCount from a to b writes exactly |a − b| power
 * changes.
 */
class WriteCountTest {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);
    private CustomResourceMemberDriver clusters;
    private PodMemberDriver rooms;

    @AfterEach
    void closeDrivers() {
        if (clusters != null) {
            clusters.close();
        }
        if (rooms != null) {
            rooms.close();
        }
    }

    @Test
    void aMemberNameThatIsTakenIsTriedAgainUnderAnotherName() {
        rooms = PodMemberDriver.builder(kube.client,
                (s, v) -> Optional.of(SchedulerConfig.of(s, "game", "rooms:1", Autoscaling.NONE))).build();
        kube.fixture.pods().inNamespace("clash").resource(new io.fabric8.kubernetes.api.model.PodBuilder()
                .withNewMetadata().withName("clash-bbbbb").endMetadata()
                .withNewSpec().addNewContainer().withName("game").withImage("other:1").endContainer().endSpec().build()).create();
        java.util.Iterator<String> suffixes = List.of("bbbbb", "ccccc").iterator();
        rooms.nameSuffixes(suffixes::next);
        kube.drain();

        assertThat(rooms.create("clash", "v1", DesiredPower.RUNNING).id()).isEqualTo("clash-ccccc");
        assertThat(kube.drainWrites()).extracting(MockKubernetes.Request::toString)
                .filteredOn(r -> r.contains("/pods")).containsExactly("POST /api/v1/namespaces/clash/pods", "POST /api/v1/namespaces/clash/pods");
        assertThat(kube.fixture.pods().inNamespace("clash").withName("clash-bbbbb").get().getSpec().getContainers().get(0).getImage())
                .as("the member that had the name is left alone").isEqualTo("other:1");
    }

    @Test
    void creatingARoomIsOneWrite() {
        rooms = PodMemberDriver.builder(kube.client,
                (s, v) -> Optional.of(SchedulerConfig.of(s, "game", "rooms:1", Autoscaling.NONE))).build();
        rooms.create("counted", "v1", DesiredPower.RUNNING);
        kube.drain();

        rooms.create("counted", "v1", DesiredPower.RUNNING);

        assertThat(kube.drainWrites()).extracting(MockKubernetes.Request::toString)
                .containsExactly("POST /api/v1/namespaces/counted/pods");
    }

    @Test
    void aPoolControllerWritesOnlyWhatChanges() {
        clusters = ClusterDeployments.driver(kube).build();
        String pool = "hive";
        PoolSpec spec = PoolSpec.builder(pool).size(5).runningCount(1).build();
        PoolController controller = PoolController.builder(spec).memberDriver(clusters).claimStore(new InMemoryClaimStore())
                .scheduler(VirtualTimeScheduler.startingAt2026()).build();
        kube.drain();

        // Filling the pool: one POST per member, nothing else.
        controller.reconcile();
        List<MockKubernetes.Request> creates = kube.drainWrites();
        assertThat(creates).hasSize(5).allSatisfy(r -> assertThat(r.method()).isEqualTo("POST"));

        settle(pool, 5);
        controller.reconcile();
        kube.drainWrites();
        settle(pool, 5);
        assertThat(clusters.list(pool)).filteredOn(m -> m.desiredPower() == DesiredPower.RUNNING).hasSize(1);

        // Steady state: nothing to write, however often it reconciles.
        for (int i = 0; i < 3; i++) {
            controller.reconcile();
            assertThat(kube.drainWrites()).as("writes of steady-state reconcile %d", i).isEmpty();
        }

        // runningCount 1 -> 4: exactly three power writes; then 4 -> 2: exactly two.
        assertPowerWrites(controller, spec, pool, 4, 3);
        assertPowerWrites(controller, spec, pool, 2, 2);
        assertPowerWrites(controller, spec, pool, 2, 0);
    }

    private void assertPowerWrites(PoolController controller, PoolSpec spec, String pool, int runningCount, int expected) {
        controller.updateSpec(spec.toBuilder().runningCount(runningCount).build());
        controller.reconcile();
        List<MockKubernetes.Request> writes = kube.drainWrites();
        assertThat(writes).as("runningCount -> %d", runningCount).hasSize(expected)
                .allSatisfy(r -> assertThat(r.method()).isEqualTo("PUT"));
        settle(pool, 5);
        controller.reconcile();
        assertThat(kube.drainWrites()).as("reconcile after settling at runningCount %d", runningCount).isEmpty();
        assertThat(clusters.list(pool)).filteredOn(m -> m.desiredPower() == DesiredPower.RUNNING).hasSize(runningCount);
    }

    /**
     * Plays Hive: marks every ClusterDeployment of the pool installed with its observed power equal to the asked
     * one, waits until the driver has seen it, and drops those writes from the log.
     */
    private void settle(String pool, int size) {
        var resources = kube.fixture.genericKubernetesResources(ClusterDeployments.CONTEXT).inNamespace(ClusterDeployments.NAMESPACE);
        for (GenericKubernetesResource cd : resources.withLabel(Kube.POOL, pool).list().getItems()) {
            @SuppressWarnings("unchecked")
            Map<String, Object> specMap = (Map<String, Object>) cd.getAdditionalProperties().get("spec");
            String asked = (String) specMap.getOrDefault("powerState", "Running");
            boolean installed = Boolean.TRUE.equals(specMap.get("installed"));
            Object observed = CustomResourceMemberDriver.read(cd, List.of("status", "powerState"));
            if (installed && asked.equals(observed)) {
                continue;
            }
            CustomResourceMemberDriver.write(cd, List.of("spec", "installed"), true);
            CustomResourceMemberDriver.write(cd, List.of("status", "powerState"), asked);
            resources.resource(cd).update();
        }
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(clusters.list(pool)).hasSize(size)
                .allSatisfy(m -> {
                    assertThat(m.phase()).isEqualTo(MemberPhase.READY);
                    ObservedPower expected = m.desiredPower() == DesiredPower.HIBERNATING ? ObservedPower.HIBERNATING : ObservedPower.RUNNING;
                    assertThat(m.observedPower()).isEqualTo(expected);
                }));
        kube.drain();
    }
}
