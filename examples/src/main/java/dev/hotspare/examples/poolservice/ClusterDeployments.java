package dev.hotspare.examples.poolservice;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The member kind of the pool service on Kubernetes: Hive's {@code ClusterDeployment}
 * ({@code hive.openshift.io/v1}), the kind {@code docs/kubernetes-rbac.yaml} grants. Without Hive, apply the
 * stand-in CRD {@code docs/examples/clusterdeployment-crd.yaml} and run with {@code --stub-provisioner}.
 */
public final class ClusterDeployments {

    /** group, version, kind, plural; namespaced. */
    public static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("hive.openshift.io").withVersion("v1").withKind("ClusterDeployment")
            .withPlural("clusterdeployments").withNamespaced(true).build();

    private ClusterDeployments() {
    }

    /**
     * The built-in template: a not-yet-installed cluster. A real Hive needs a full ClusterDeployment spec
     * (platform, pull secret, install config); pass your own with {@code --template}.
     */
    public static GenericKubernetesResource defaultTemplate() {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("clusterName", "pool-member");
        spec.put("baseDomain", "example.com");
        spec.put("installed", false);
        return new GenericKubernetesResourceBuilder().withApiVersion("hive.openshift.io/v1").withKind("ClusterDeployment")
                .withNewMetadata().withName("template").endMetadata()
                .withAdditionalProperties(Map.of("spec", spec))
                .build();
    }
}
