package dev.hotspare.kubernetes;

import dev.hotspare.testkit.servers.MockKubernetes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.Map;

/** Hive's ClusterDeployment as the test custom resource (the same kind docs/kubernetes-rbac.yaml grants). */
final class ClusterDeployments {

    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("hive.openshift.io").withVersion("v1").withKind("ClusterDeployment")
            .withPlural("clusterdeployments").withNamespaced(true).build();

    static final String NAMESPACE = "clusters";

    private ClusterDeployments() {
    }

    static GenericKubernetesResource template() {
        return new GenericKubernetesResourceBuilder().withApiVersion("hive.openshift.io/v1").withKind("ClusterDeployment")
                .withNewMetadata().withName("template").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("platform", Map.of("aws", Map.of("region", "eu-west-1")),
                        "installed", false)))
                .build();
    }

    static CustomResourceMemberDriver.Builder driver(MockKubernetes kube) {
        kube.server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                .withGroup(CONTEXT.getGroup()).withVersion(CONTEXT.getVersion()).withKind(CONTEXT.getKind())
                .withPlural(CONTEXT.getPlural()).withScope("Namespaced").build());
        return CustomResourceMemberDriver.builder(kube.client, CONTEXT, NAMESPACE).template("v1", template());
    }
}
