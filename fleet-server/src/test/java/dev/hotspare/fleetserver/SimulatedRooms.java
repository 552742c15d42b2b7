package dev.hotspare.fleetserver;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Plays the kubelet and the game rooms against the mock API server: watches the scheduler's pods, marks new
 * ones Running + Ready (at once, or only when {@link #releasePending()} is called while {@link #holdPods} is on),
 * and then has the room ping {@code ready} over HTTP, as a game room does once it can take a match. Also keeps
 * the high-water marks the test asserts: most pods at once, most not-ready pods of a template version at once.
 */
final class SimulatedRooms implements AutoCloseable {

    static final String VERSION_LABEL = "hotspare.dev/template-version";

    private final KubernetesClient kube;
    private final String namespace;
    private final Http http;
    private final String scheduler;
    private final SharedIndexInformer<Pod> informer;
    private final ExecutorService rooms = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "simulated-rooms");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean hold = new AtomicBoolean();
    private final Set<String> pending = ConcurrentHashMap.newKeySet();
    private final Set<String> readied = ConcurrentHashMap.newKeySet();
    private final AtomicInteger mostPods = new AtomicInteger();
    private final Map<String, AtomicInteger> mostUnreadyByVersion = new ConcurrentHashMap<>();

    SimulatedRooms(KubernetesClient kube, String scheduler, Http http) {
        this.kube = kube;
        this.namespace = scheduler;
        this.scheduler = scheduler;
        this.http = http;
        this.informer = kube.pods().inNamespace(namespace).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                observe();
                if (hold.get()) {
                    pending.add(pod.getMetadata().getName());
                } else {
                    rooms.execute(() -> becomeReady(pod.getMetadata().getName()));
                }
            }

            @Override
            public void onUpdate(Pod oldPod, Pod newPod) {
                observe();
            }

            @Override
            public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
                observe();
            }
        });
    }

    /** While on, new pods stay Pending until {@link #releasePending()}. */
    void holdPods(boolean on) {
        hold.set(on);
    }

    /** Makes every held pod ready (and its room ping ready). */
    void releasePending() {
        List<String> names = List.copyOf(pending);
        pending.removeAll(names);
        names.forEach(name -> rooms.execute(() -> becomeReady(name)));
    }

    /** Pods (by name) currently in the namespace and not being deleted. */
    List<Pod> pods() {
        return informer.getStore().list().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    List<String> podNames() {
        return pods().stream().map(p -> p.getMetadata().getName()).sorted().toList();
    }

    /** Pods of {@code version} the simulated kubelet has not made ready yet. */
    long unready(String version) {
        return pods().stream().filter(p -> version.equals(p.getMetadata().getLabels().get(VERSION_LABEL)))
                .filter(p -> !isReady(p)).count();
    }

    int mostPods() {
        return mostPods.get();
    }

    int mostUnready(String version) {
        return mostUnreadyByVersion.computeIfAbsent(version, v -> new AtomicInteger()).get();
    }

    /** Whether every pod made ready has pinged (the ping is done after the status write). */
    boolean allPinged() {
        return pods().stream().allMatch(p -> readied.contains(p.getMetadata().getName()));
    }

    private synchronized void observe() {
        if (informer == null) {
            return; // the informer's first list, for pods that existed before: still being constructed
        }
        Collection<Pod> now = pods();
        mostPods.accumulateAndGet(now.size(), Math::max);
        Map<String, Integer> unready = new java.util.HashMap<>();
        for (Pod pod : now) {
            if (!isReady(pod)) {
                unready.merge(pod.getMetadata().getLabels().getOrDefault(VERSION_LABEL, "?"), 1, Integer::sum);
            }
        }
        unready.forEach((version, count) -> mostUnreadyByVersion.computeIfAbsent(version, v -> new AtomicInteger())
                .accumulateAndGet(count, Math::max));
    }

    private static boolean isReady(Pod pod) {
        return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase());
    }

    private void becomeReady(String name) {
        try {
            Pod pod = kube.pods().inNamespace(namespace).withName(name).get();
            if (pod == null) {
                return;
            }
            kube.pods().inNamespace(namespace).resource(new PodBuilder(pod).editOrNewStatus().withPhase("Running")
                    .withConditions(new PodConditionBuilder().withType("Ready").withStatus("True").build()).endStatus().build())
                    .updateStatus();
            Http.Answer answer = http.put("/scheduler/" + scheduler + "/rooms/" + name + "/ping",
                    "{\"timestamp\":" + Clock.systemUTC().instant().getEpochSecond() + ",\"status\":\"ready\"}");
            if (answer.status() == 200) {
                readied.add(name);
            }
        } catch (RuntimeException e) {
            // A pod deleted while it started: nothing to play.
        }
    }

    @Override
    public void close() {
        informer.close();
        rooms.shutdownNow();
    }
}
