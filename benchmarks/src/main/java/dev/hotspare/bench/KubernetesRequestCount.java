package dev.hotspare.bench;

import dev.hotspare.kubernetes.CustomResourceMemberDriver;
import dev.hotspare.memory.InMemoryClaimStore;
import dev.hotspare.pool.Member;
import dev.hotspare.pool.Member.DesiredPower;
import dev.hotspare.pool.Member.MemberPhase;
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
 * {@link PoolController} versus a naive driver that lists every member and updates only the members whose power
 * changes (a fair baseline: it writes what must change, but reads the whole pool every reconcile), both against the
 * fabric8 mock API server in the same run. Prints both counts and the ratio. The driver reads from an informer
 * instead of listing: its list and watch requests over the whole run (the driver's client has a user agent of its
 * own) are counted and printed too, and charged to hotspare in a second ratio as if the run had had one reconcile.
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
        // The driver's own client, told apart in the request log by its user agent.
        KubernetesClient driverClient = server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory())
                .editOrNewConfig().withUserAgent(DRIVER_AGENT).endConfig());
        List<Recorded> log = new ArrayList<>();
        try (CustomResourceMemberDriver driver = CustomResourceMemberDriver.builder(driverClient, CD, NAMESPACE)
                .template("v1", template()).build()) {
            PoolSpec spec = PoolSpec.builder("bench").size(members).runningCount(before).build();
            PoolController controller = PoolController.builder(spec).memberDriver(driver).claimStore(new InMemoryClaimStore())
                    .scheduler(VirtualTimeScheduler.startingAt2026()).build();
            controller.reconcile();
            settle(client, driver, members);
            controller.reconcile();
            settle(client, driver, members);
            log.addAll(drain(server));

            controller.updateSpec(spec.toBuilder().runningCount(after).build());
            controller.reconcile();
            List<Recorded> reconcile = drain(server);
            log.addAll(reconcile);
            List<String> hotspare = reconcile.stream().filter(Recorded::byDriver).map(Recorded::line).toList();

            // The naive driver: list every member, then update only those whose power state changes. It makes the
            // same move from `before` to `after` (first back to `before`, not counted), or it would find nothing to do.
            naiveReconcile(client, before);
            log.addAll(drain(server));
            naiveReconcile(client, after);
            List<Recorded> naiveLog = drain(server);
            log.addAll(naiveLog);
            List<String> naive = naiveLog.stream().map(Recorded::line).toList();

            List<String> informer = log.stream().filter(Recorded::byDriver).map(Recorded::line)
                    .filter(KubernetesRequestCount::isListOrWatch).toList();
            long watches = informer.stream().filter(line -> line.contains("watch=true")).count();
            System.out.printf("pool of %d members, runningCount %d -> %d, requests for one reconcile:%n", members, before, after);
            System.out.printf("  hotspare CustomResourceMemberDriver + PoolController: %d (%d writes)%n", hotspare.size(), writes(hotspare));
            System.out.printf("  naive list-and-update-what-changes driver:           %d (%d writes, %d lists)%n", naive.size(),
                    writes(naive), naive.size() - writes(naive));
            System.out.printf("  hotspare's informer over the whole run (every reconcile shares it): %d requests (%d lists, %d watches)%n",
                    informer.size(), informer.size() - watches, watches);
            System.out.printf("RATIO KubernetesRequestCount [members=%d]: naive / hotspare = %.2fx fewer requests per reconcile; "
                            + "%.2fx with all of the informer's traffic charged to this one reconcile%n", members,
                    (double) naive.size() / Math.max(1, hotspare.size()),
                    (double) naive.size() / Math.max(1, hotspare.size() + informer.size()));
        } finally {
            driverClient.close();
            client.close();
            server.shutdown();
        }
    }

    private static final String DRIVER_AGENT = "hotspare-bench-driver";

    /** One request from the mock server's log: the line, and whether the driver's client sent it. */
    record Recorded(String line, boolean byDriver) {
    }

    /** A GET of the collection (a list, or a watch of it), not of one named object. */
    private static boolean isListOrWatch(String line) {
        String path = line.substring(line.indexOf(' ') + 1);
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        return line.startsWith("GET ") && (path.contains("watch=true") || bare.endsWith("/" + CD.getPlural()));
    }

    private static void naiveReconcile(KubernetesClient client, int runningCount) {
        var op = client.genericKubernetesResources(CD).inNamespace(NAMESPACE);
        List<GenericKubernetesResource> all = new ArrayList<>(op.withLabel("hotspare.dev/pool", "bench").list().getItems());
        all.sort(Comparator.comparing((GenericKubernetesResource r) -> r.getMetadata().getAnnotations().get("hotspare.dev/created-at"))
                .thenComparing(r -> r.getMetadata().getName()));
        for (int i = 0; i < all.size(); i++) {
            GenericKubernetesResource r = all.get(i);
            String wanted = i < runningCount ? "Running" : "Hibernating";
            Map<String, Object> spec = spec(r);
            if (!wanted.equals(spec.getOrDefault("powerState", "Running"))) {
                spec.put("powerState", wanted);
                op.resource(r).update();
            }
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

    private static List<Recorded> drain(KubernetesMockServer server) throws InterruptedException {
        List<Recorded> out = new ArrayList<>();
        io.fabric8.mockwebserver.http.RecordedRequest r;
        while ((r = server.takeRequest(200, TimeUnit.MILLISECONDS)) != null) {
            String agent = r.getHeader("User-Agent");
            out.add(new Recorded(r.getMethod() + " " + r.getPath(), agent != null && agent.contains(DRIVER_AGENT)));
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
