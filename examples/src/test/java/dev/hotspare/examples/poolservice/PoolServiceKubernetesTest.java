package dev.hotspare.examples.poolservice;

import dev.hotspare.kubernetes.CustomResourceMemberDriver;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.MemberPhase;
import dev.hotspare.pool.Member.ObservedPower;
import dev.hotspare.pool.runtime.ClaimHandle;
import dev.hotspare.testkit.servers.MockKubernetes;
import dev.hotspare.time.VirtualTimeScheduler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The pool service on ClusterDeployment custom resources in the fabric8 mock API server (CRUD mode). The mock
 * has no controller, so the test plays Hive with {@link StubProvisioner} on its own client: it installs the
 * resources and moves their {@code status.powerState} toward the {@code spec.powerState} hotspare asks for.
 * Time is virtual (the driver, the controller and the provisioner read one clock); only the informer's
 * deliveries are real, and the test waits for them with Awaitility. Every request the service sent is checked
 * against docs/kubernetes-rbac.yaml when the class ends (MockKubernetes).
 */
class PoolServiceKubernetesTest {

    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(Path.of("..", "docs", "kubernetes-rbac.yaml"));

    private static final String NAMESPACE = "clusters";
    private static final String POOL = "ci-pool";

    private final VirtualTimeScheduler time = VirtualTimeScheduler.startingAt2026();
    private final StringWriter output = new StringWriter();
    private CustomResourceMemberDriver driver;
    private StubProvisioner hive;
    private PoolService service;

    @BeforeEach
    void setUp() {
        kube.server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                .withGroup("hive.openshift.io").withVersion("v1").withKind("ClusterDeployment")
                .withPlural("clusterdeployments").withScope("Namespaced").build());
        driver = CustomResourceMemberDriver.builder(kube.client, ClusterDeployments.CONTEXT, NAMESPACE)
                .clock(time.clock()).template("v1", ClusterDeployments.defaultTemplate()).build();
        hive = new StubProvisioner(kube.fixture, ClusterDeployments.CONTEXT, NAMESPACE, POOL, time.clock(),
                DemoPool.INSTALL, DemoPool.RESUME, DemoPool.HIBERNATE);
        service = PoolService.builder(DemoPool.spec(), driver, new InMemoryClaimStore(), time,
                new PrintWriter(output, true)).build().start();
    }

    @AfterEach
    void tearDown() {
        service.close();
        driver.close();
        kube.fixture.genericKubernetesResources(ClusterDeployments.CONTEXT).inNamespace(NAMESPACE).delete();
    }

    @Test
    void servesHotRefillsOldestFirstServesWarmAndHibernatesClaimedClusters() {
        time.runDueTasks();
        assertThat(resources()).hasSize(3);
        // install (7 s) and hibernate (2 s) the newer two: the oldest cluster is the hot spare
        tick(Duration.ofSeconds(10));
        List<String> order = membersInTotalOrder();
        String first = order.get(0);
        String second = order.get(1);
        String third = order.get(2);
        assertResource(first, "Running", "Running", null);
        assertResource(second, "Hibernating", "Hibernating", null);
        assertResource(third, "Hibernating", "Hibernating", null);

        // claim a: served hot, at once, by the running cluster; the oldest hibernated one is asked to run
        ClaimHandle a = service.claim("a", Optional.empty()).orElseThrow();
        service.controller().reconcile();
        assertThat(a.member().join().id()).isEqualTo(first);
        assertResource(first, "Running", "Running", "a");
        assertThat(resource(first).getMetadata().getAnnotations()).containsEntry("hotspare.dev/claimed-at", "2026-01-01T00:00:10Z");
        assertResource(second, "Running", "Hibernating", null);
        assertResource(third, "Hibernating", "Hibernating", null);
        assertThat(resources()).hasSize(4);
        assertThat(output.toString()).contains("served    a -> " + first + " HOT, served immediately",
                "resume    " + second + ", created t+0.0s: running slot 1 of 1");

        // claim b: nothing runs yet, so the next oldest resumes too; b gets the oldest once it runs (warm)
        ClaimHandle b = service.claim("b", Optional.empty()).orElseThrow();
        service.controller().reconcile();
        assertThat(b.member()).isNotDone();
        assertResource(third, "Running", "Hibernating", null);
        tick(Duration.ofSeconds(4));
        assertThat(b.member().join().id()).isEqualTo(second);
        assertResource(second, "Running", "Running", "b");
        assertResource(third, "Running", "Running", null);
        assertThat(output.toString()).contains("served    b -> " + second + " WARM after");

        // hibernateAfter 10 s: cluster a hibernates 10 s after it was claimed, and stays claimed
        tick(Duration.ofSeconds(8));
        assertResource(first, "Hibernating", "Hibernating", "a");
        assertThat(output.toString()).contains("hibernate " + first + " (claimed by a): claimed and running since t+10.0s, "
                + "hibernateAfter 10.0s elapsed");
        assertResource(third, "Running", "Running", null);

        output.getBuffer().setLength(0);
        service.printStatus();
        assertThat(output.toString()).containsPattern(first + " +t\\+0\\.0s +READY +HIBERNATING +HIBERNATING .* a \\(since t\\+10\\.0s\\)")
                .containsPattern(second + " +t\\+0\\.0s +READY +RUNNING +RUNNING .* b \\(since t\\+1[34]\\.0s\\)")
                .containsPattern(third + " +t\\+0\\.0s +READY +RUNNING +RUNNING .* -");
    }

    /**
     * Moves virtual time on in 1 s steps; at each step Hive moves what is due, the test waits until the driver's
     * informer has seen it, and the controller makes a pass.
     */
    private void tick(Duration total) {
        for (long s = 0; s < total.toSeconds(); s++) {
            time.advanceBy(Duration.ofSeconds(1));
            List<StubProvisioner.Move> moves = hive.step();
            for (StubProvisioner.Move move : moves) {
                ObservedPower expected = switch (move.to()) {
                    case "Running" -> ObservedPower.RUNNING;
                    case "Hibernating" -> ObservedPower.HIBERNATING;
                    case "Resuming" -> ObservedPower.RESUMING;
                    default -> ObservedPower.HIBERNATING_IN_PROGRESS;
                };
                await().atMost(Duration.ofSeconds(60)).until(() -> driver.find(POOL, move.member())
                        .map(m -> m.observedPower() == expected && m.phase() == MemberPhase.READY).orElse(false));
            }
            service.controller().reconcile();
        }
    }

    private List<String> membersInTotalOrder() {
        return driver.list(POOL).stream().sorted(Member.TOTAL_ORDER).map(Member::id).toList();
    }

    private List<GenericKubernetesResource> resources() {
        return kube.fixture.genericKubernetesResources(ClusterDeployments.CONTEXT).inNamespace(NAMESPACE)
                .withLabel("hotspare.dev/pool", POOL).list().getItems().stream()
                .sorted(Comparator.comparing(r -> r.getMetadata().getName())).toList();
    }

    private GenericKubernetesResource resource(String name) {
        return kube.fixture.genericKubernetesResources(ClusterDeployments.CONTEXT).inNamespace(NAMESPACE)
                .withName(name).get();
    }

    @SuppressWarnings("unchecked")
    private void assertResource(String name, String specPower, String statusPower, String claim) {
        GenericKubernetesResource r = resource(name);
        Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
        Map<String, Object> status = (Map<String, Object>) r.getAdditionalProperties().getOrDefault("status", Map.of());
        assertThat(spec.get("powerState")).as("%s spec.powerState", name).isEqualTo(specPower);
        assertThat(status.get("powerState")).as("%s status.powerState", name).isEqualTo(statusPower);
        assertThat(spec.get("installed")).as("%s spec.installed", name).isEqualTo(true);
        assertThat(r.getMetadata().getLabels()).containsEntry("hotspare.dev/pool", POOL).containsEntry("hotspare.dev/member", name);
        Map<String, String> annotations = r.getMetadata().getAnnotations();
        if (claim == null) {
            assertThat(annotations).doesNotContainKey("hotspare.dev/claim");
        } else {
            assertThat(annotations).containsEntry("hotspare.dev/claim", claim);
        }
    }
}
