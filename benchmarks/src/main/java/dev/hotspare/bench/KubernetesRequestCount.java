package dev.hotspare.bench;

import dev.hotspare.kubernetes.CustomResourceMemberDriver;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.pool.DesiredPower;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.MemberPhase;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.time.VirtualTimeScheduler;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * Not a timing benchmark: counts the API requests one reconcile of a 1,000-member pool sends after
 * {@code runningCount} changes from 100 to 150, for hotspare's {@link CustomResourceMemberDriver} under the real
 * {@link PoolController} versus a naive driver that lists every member and updates each one, both against the
 * fabric8 mock API server in the same run. Prints both counts and the ratio.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.hotspare.bench.KubernetesRequestCount [members]}
 */
public final class KubernetesRequestCount {

    private static final ResourceDefinitionContext CD = new ResourceDefinitionContext.Builder()
            .withGroup("hive.openshift.io").withVersion("v1").withKind("ClusterDeployment")
            .withPlural("clusterdeployments").withNamespaced(true).build();
    private static final String NAMESPACE = "clusters";

    private KubernetesRequestCount() {
    }

    public static void main(String[] args) throws Exception {
        java.util.logging.Logger quiet = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");
        quiet.setLevel(java.util.logging.Level.WARNING);
        int members = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int before = members / 10;
        int after = before + members / 20;

        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), responses,
                new KubernetesMixedDispatcher(responses), false);
        server.start();
        server.expectCustomResource(new CustomResourceDefinitionContext.Builder().withGroup(CD.getGroup())
                .withVersion(CD.getVersion()).withKind(CD.getKind()).withPlural(CD.getPlural()).withScope("Namespaced").build());
        KubernetesClient client = server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory()));
        try (CustomResourceMemberDriver driver = CustomResourceMemberDriver.builder(client, CD, NAMESPACE)
                .template("v1", template()).build()) {
            PoolSpec spec = PoolSpec.builder("bench").size(members).runningCount(before).build();
            PoolController controller = PoolController.builder(spec).memberDriver(driver).claimStore(new InMemoryClaimStore())
                    .scheduler(VirtualTimeScheduler.startingAt2026()).build();
            controller.reconcile();
            settle(client, driver, members);
            controller.reconcile();
            settle(client, driver, members);
            drain(server);

            controller.updateSpec(spec.toBuilder().runningCount(after).build());
            controller.reconcile();
            List<String> hotspare = drain(server);

            // The naive driver: list every member, then update every one of them with its power state.
            naiveReconcile(client, after);
            List<String> naive = drain(server);

            System.out.printf("pool of %d members, runningCount %d -> %d, requests for one reconcile:%n", members, before, after);
            System.out.printf("  hotspare CustomResourceMemberDriver + PoolController: %d (%d writes)%n", hotspare.size(), writes(hotspare));
            System.out.printf("  naive list-and-update-every-member driver:            %d (%d writes)%n", naive.size(), writes(naive));
            System.out.printf("  ratio naive / hotspare: %.1fx fewer requests%n", (double) naive.size() / Math.max(1, hotspare.size()));
        } finally {
            client.close();
            server.shutdown();
        }
    }

    private static void naiveReconcile(KubernetesClient client, int runningCount) {
        var op = client.genericKubernetesResources(CD).inNamespace(NAMESPACE);
        List<GenericKubernetesResource> all = new ArrayList<>(op.withLabel("hotspare.dev/pool", "bench").list().getItems());
        all.sort(Comparator.comparing((GenericKubernetesResource r) -> r.getMetadata().getAnnotations().get("hotspare.dev/created-at"))
                .thenComparing(r -> r.getMetadata().getName()));
        for (int i = 0; i < all.size(); i++) {
            GenericKubernetesResource r = all.get(i);
            spec(r).put("powerState", i < runningCount ? "Running" : "Hibernating");
            op.resource(r).update();
        }
    }

    /** Plays Hive: installs every member and makes its observed power the asked one; waits for the driver to see it. */
    private static void settle(KubernetesClient client, CustomResourceMemberDriver driver, int members) throws InterruptedException {
        var op = client.genericKubernetesResources(CD).inNamespace(NAMESPACE);
        for (GenericKubernetesResource r : op.withLabel("hotspare.dev/pool", "bench").list().getItems()) {
            Map<String, Object> spec = spec(r);
            String asked = (String) spec.getOrDefault("powerState", "Running");
            @SuppressWarnings("unchecked")
            Map<String, Object> status = r.getAdditionalProperties().get("status") instanceof Map<?, ?> m
                    ? new LinkedHashMap<>((Map<String, Object>) m) : new LinkedHashMap<>();
            if (Boolean.TRUE.equals(spec.get("installed")) && asked.equals(status.get("powerState"))) {
                continue;
            }
            spec.put("installed", true);
            status.put("powerState", asked);
            r.getAdditionalProperties().put("status", status);
            op.resource(r).update();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!settled(driver.list("bench"), members)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("driver did not observe the settled pool within 60 s");
            }
            Thread.sleep(50);
        }
    }

    private static boolean settled(List<Member> list, int members) {
        return list.size() == members && list.stream().allMatch(m -> m.phase() == MemberPhase.READY
                && m.observedPower().name().equals(m.desiredPower() == DesiredPower.HIBERNATING ? "HIBERNATING" : "RUNNING"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(GenericKubernetesResource r) {
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) r.getAdditionalProperties().get("spec"));
        r.getAdditionalProperties().put("spec", spec);
        return spec;
    }

    private static List<String> drain(KubernetesMockServer server) throws InterruptedException {
        List<String> out = new ArrayList<>();
        io.fabric8.mockwebserver.http.RecordedRequest r;
        while ((r = server.takeRequest(200, TimeUnit.MILLISECONDS)) != null) {
            out.add(r.getMethod() + " " + r.getPath());
        }
        return out;
    }

    private static long writes(List<String> requests) {
        return requests.stream().filter(r -> !r.startsWith("GET")).count();
    }

    private static GenericKubernetesResource template() {
        return new GenericKubernetesResourceBuilder().withApiVersion("hive.openshift.io/v1").withKind("ClusterDeployment")
                .withNewMetadata().withName("template").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("installed", false))).build();
    }
}
