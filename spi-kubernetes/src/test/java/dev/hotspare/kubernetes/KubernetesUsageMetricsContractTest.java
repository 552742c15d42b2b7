package dev.hotspare.kubernetes;

import dev.hotspare.fleet.autoscale.ResourceMetric;
import dev.hotspare.fleet.autoscale.UsageReading;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.kubernetes.internal.Kube;
import dev.hotspare.testkit.fleet.UsageMetricsContract;
import dev.hotspare.testkit.servers.MockKubernetes;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.metrics.v1beta1.PodMetricsBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.math.BigDecimal;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The usage metrics contract on pods and PodMetrics in the fabric8 mock API server. */
class KubernetesUsageMetricsContractTest extends UsageMetricsContract {

    /** Started with the class; checks every request against the RBAC file and stops after the last test. */
    @RegisterExtension
    static final MockKubernetes kube = MockKubernetes.checkingRbac(RbacFile.SHIPPED);

    @Override
    protected UsageMetrics newMetrics() {
        return KubernetesUsageMetrics.create(kube.client);
    }

    /** Two rooms splitting the usage and the requests, plus metrics for a pod hotspare does not own. */
    @Override
    protected void prepare(UsageMetrics metrics, String scheduler, ResourceMetric metric, BigDecimal used, BigDecimal requested) {
        String resource = metric == ResourceMetric.CPU ? "cpu" : "memory";
        BigDecimal two = BigDecimal.valueOf(2);
        for (int i = 0; i < 2; i++) {
            String name = scheduler + "-room" + i;
            kube.fixture.pods().inNamespace(scheduler).resource(new PodBuilder().withNewMetadata().withName(name)
                    .addToLabels(Kube.MANAGED_BY, Kube.MANAGER).addToLabels(Kube.POOL, scheduler).endMetadata()
                    .withNewSpec().addNewContainer().withName("room").withImage("rooms:1").withNewResources()
                    .addToRequests(resource, new Quantity(requested.divide(two).toPlainString())).endResources()
                    .endContainer().endSpec().build()).create();
            kube.fixture.resource(new PodMetricsBuilder().withNewMetadata().withName(name).withNamespace(scheduler)
                    .addToLabels(Kube.MANAGED_BY, Kube.MANAGER).addToLabels(Kube.POOL, scheduler).endMetadata()
                    .addNewContainer().withName("room").addToUsage(resource, new Quantity(used.divide(two).toPlainString()))
                    .endContainer().build()).create();
        }
    }

    @Test
    void roomsThatDoNotReportYetDoNotDiluteTheReading() {
        UsageMetrics metrics = newMetrics();
        prepare(metrics, "partial", ResourceMetric.MEM, new BigDecimal("1073741824"), new BigDecimal("4294967296"));
        kube.fixture.pods().inNamespace("partial").resource(new PodBuilder().withNewMetadata().withName("partial-new")
                .addToLabels(Kube.MANAGED_BY, Kube.MANAGER).addToLabels(Kube.POOL, "partial").endMetadata()
                .withNewSpec().addNewContainer().withName("room").withImage("rooms:1").withNewResources()
                .addToRequests("memory", new Quantity("8Gi")).endResources().endContainer().endSpec().build()).create();

        assertThat(metrics.usage("partial", ResourceMetric.MEM)).isInstanceOfSatisfying(UsageReading.Available.class,
                a -> assertThat(a.utilization()).isEqualByComparingTo("0.25"));
    }

    @Test
    void aMissingMetricsApiIsUnavailableNotAnException() {
        kube.server.expect().get().withPath("/apis/metrics.k8s.io/v1beta1/namespaces/broken/pods?labelSelector="
                        + "app.kubernetes.io%2Fmanaged-by%3Dhotspare%2Chotspare.dev%2Fpool%3Dbroken")
                .andReturn(503, Map.of("kind", "Status", "code", 503)).once();

        assertThat(newMetrics().usage("broken", ResourceMetric.CPU)).isInstanceOf(UsageReading.Unavailable.class);
    }
}
