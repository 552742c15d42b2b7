package dev.hotspare.kubernetes;

import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.validation.Names;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.ContainerMetrics;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.PodMetrics;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link UsageMetrics} from the Kubernetes metrics API ({@code metrics.k8s.io/v1beta1} PodMetrics, served by
 * metrics-server): the summed usage of a scheduler's room pods divided by the summed requests of the same pods.
 *
 * <p>Only pods that report metrics count, on both sides of the fraction, so a room that just started (no sample
 * yet) does not dilute the utilisation. The answer is {@link UsageReading.Unavailable} — and the autoscaler
 * holds — when the metrics API is missing or failing, when no room reports yet, or when the reporting rooms
 * request none of the resource. It never throws for an unreachable API.
 *
 * <p>Two requests per reading: a list of the scheduler's pods (for requests) and a list of their PodMetrics,
 * both selected by the labels {@link PodMemberDriver} puts on rooms.
 */
public final class KubernetesUsageMetrics implements UsageMetrics {

    private final KubernetesClient client;
    private final String namespacePrefix;

    private KubernetesUsageMetrics(KubernetesClient client, String namespacePrefix) {
        this.client = Objects.requireNonNull(client, "client");
        this.namespacePrefix = Objects.requireNonNull(namespacePrefix, "namespacePrefix");
    }

    /**
     * Metrics of rooms in namespace {@code <scheduler>} (the pod driver's default).
     */
    public static KubernetesUsageMetrics create(KubernetesClient client) {
        return new KubernetesUsageMetrics(client, "");
    }

    /**
     * Metrics of rooms in namespace {@code <namespacePrefix><scheduler>}, matching the pod driver's prefix.
     */
    public static KubernetesUsageMetrics create(KubernetesClient client, String namespacePrefix) {
        return new KubernetesUsageMetrics(client, namespacePrefix);
    }

    @Override
    public UsageReading usage(String scheduler, ResourceMetric metric) {
        Names.requireDns1123Label("scheduler", scheduler);
        Objects.requireNonNull(metric, "metric");
        String namespace = namespacePrefix + scheduler;
        Map<String, String> selector = Map.of(Kube.MANAGED_BY, Kube.MANAGER, Kube.POOL, scheduler);
        String resource = metric == ResourceMetric.CPU ? "cpu" : "memory";
        List<PodMetrics> samples;
        List<Pod> pods;
        try {
            samples = client.top().pods().withLabels(selector).metrics(namespace).getItems();
            pods = client.pods().inNamespace(namespace).withLabels(selector).list().getItems();
        } catch (KubernetesClientException e) {
            return UsageReading.unavailable("metrics API unavailable for scheduler " + scheduler + ": HTTP " + e.getCode()
                    + " " + Optional.ofNullable(e.getMessage()).orElse(""));
        }
        Map<String, BigDecimal> requestedByPod = new HashMap<>();
        for (Pod pod : pods) {
            BigDecimal sum = BigDecimal.ZERO;
            for (Container c : pod.getSpec().getContainers()) {
                if (c.getResources() != null && c.getResources().getRequests() != null) {
                    Quantity q = c.getResources().getRequests().get(resource);
                    if (q != null) {
                        sum = sum.add(amount(q));
                    }
                }
            }
            requestedByPod.put(pod.getMetadata().getName(), sum);
        }
        BigDecimal used = BigDecimal.ZERO;
        BigDecimal requested = BigDecimal.ZERO;
        int reporting = 0;
        for (PodMetrics sample : samples) {
            BigDecimal podRequested = requestedByPod.get(sample.getMetadata().getName());
            if (podRequested == null || sample.getContainers() == null) {
                continue;
            }
            BigDecimal podUsed = BigDecimal.ZERO;
            boolean reported = false;
            for (ContainerMetrics c : sample.getContainers()) {
                Quantity q = c.getUsage() == null ? null : c.getUsage().get(resource);
                if (q != null) {
                    podUsed = podUsed.add(amount(q));
                    reported = true;
                }
            }
            if (reported) {
                reporting++;
                used = used.add(podUsed);
                requested = requested.add(podRequested);
            }
        }
        if (reporting == 0) {
            return UsageReading.unavailable("no " + resource + " metrics reported for the rooms of scheduler " + scheduler);
        }
        if (requested.signum() <= 0) {
            return UsageReading.unavailable("the rooms of scheduler " + scheduler + " request no " + resource);
        }
        return UsageReading.of(used, requested);
    }

    /** A Kubernetes quantity in base units (cores, bytes), exactly, through hotspare's own parser. */
    private static BigDecimal amount(Quantity q) {
        return dev.hotspare.fleet.SchedulerConfig.Quantity.parse(q.getAmount() + (q.getFormat() == null ? "" : q.getFormat())).value();
    }
}
