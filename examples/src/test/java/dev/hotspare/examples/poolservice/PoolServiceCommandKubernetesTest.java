package dev.hotspare.examples.poolservice;

import dev.hotspare.testkit.servers.MockKubernetes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code hotspare pool-service --kubernetes --stub-provisioner} as a user runs it, against the fabric8 mock API
 * server: the command builds its own client from fabric8's standard configuration (here system properties
 * pointing at the mock instead of a kubeconfig), creates ClusterDeployments, and its stub provisioner installs,
 * resumes and hibernates them on real time. Every request is checked against docs/kubernetes-rbac.yaml.
 */
class PoolServiceCommandKubernetesTest {

    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(Path.of("..", "docs", "kubernetes-rbac.yaml"));

    private static final Map<String, String> CLIENT_PROPERTIES = Map.of(
            "kubernetes.master", "", // set per test from the mock server's URL
            "kubernetes.auth.tryKubeConfig", "false",
            "kubernetes.auth.tryServiceAccount", "false",
            "kubernetes.namespace", "default");

    @Test
    void runsTheScriptOnCustomResourcesAndExitsByItself(@TempDir Path dir) throws IOException {
        kube.server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                .withGroup("hive.openshift.io").withVersion("v1").withKind("ClusterDeployment")
                .withPlural("clusterdeployments").withScope("Namespaced").build());
        Path pool = Files.writeString(dir.resolve("pool.yaml"), "name: quick\nsize: 2\nrunningCount: 1\nhibernateAfter: PT1S\n");
        CliRun run = withMockClientProperties(() -> CliRun.run("pool-service", "--kubernetes", "--namespace", "clusters",
                "--stub-provisioner", "--pool", pool.toString(), "--claims", "2", "--every", "100ms", "--install", "300ms",
                "--resume", "300ms", "--hibernate", "100ms", "--resync", "200ms"));

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("members: ClusterDeployments in namespace clusters at " + kube.client.getMasterUrl(),
                "(with the stub provisioner playing Hive)", "script    pool settled; 2 claims follow",
                "served    demo-1 -> quick-", "served    demo-2 -> quick-", "(claimed by demo-1): claimed and running since",
                "script    done", "pool-service stopped: script done");
        assertThat(run.out()).containsPattern("served    demo-1 -> quick-\\w{5} HOT");
        List<GenericKubernetesResource> claimed = kube.fixture.genericKubernetesResources(ClusterDeployments.CONTEXT)
                .inNamespace("clusters").withLabel("hotspare.dev/pool", "quick").list().getItems().stream()
                .filter(r -> r.getMetadata().getAnnotations().containsKey("hotspare.dev/claim")).toList();
        assertThat(claimed).hasSize(2).allSatisfy(r -> {
            assertThat(((Map<?, ?>) r.getAdditionalProperties().get("spec")).get("powerState")).isEqualTo("Hibernating");
            assertThat(((Map<?, ?>) r.getAdditionalProperties().get("status")).get("powerState")).isEqualTo("Hibernating");
        });
    }

    private static CliRun withMockClientProperties(java.util.function.Supplier<CliRun> action) {
        InputStream originalIn = System.in;
        Map<String, String> previous = new java.util.HashMap<>();
        try {
            for (var e : CLIENT_PROPERTIES.entrySet()) {
                String value = e.getKey().equals("kubernetes.master") ? kube.client.getMasterUrl().toString() : e.getValue();
                previous.put(e.getKey(), System.getProperty(e.getKey()));
                System.setProperty(e.getKey(), value);
            }
            System.setIn(new ByteArrayInputStream(new byte[0]));
            return action.get();
        } finally {
            System.setIn(originalIn);
            previous.forEach((k, v) -> {
                if (v == null) {
                    System.clearProperty(k);
                } else {
                    System.setProperty(k, v);
                }
            });
        }
    }
}
