package dev.hotspare.examples.snippets;

import dev.hotspare.fleet.SchedulerConfig;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.spi.UsageMetrics;
import dev.hotspare.kubernetes.CustomResourceMemberDriver;
import dev.hotspare.kubernetes.KubernetesLeaderElection;
import dev.hotspare.kubernetes.KubernetesLockStore;
import dev.hotspare.kubernetes.KubernetesUsageMetrics;
import dev.hotspare.kubernetes.PodMemberDriver;
import dev.hotspare.kubernetes.RoomTemplates;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.rollout.spi.LeaderElection;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/** The Kubernetes snippets of README.md and docs/kubernetes.md; compiled, not run (they need a cluster). */
final class KubernetesSnippets {

    private KubernetesSnippets() {
    }

    static void readme(KubernetesClient client, SchedulerConfig schedulerConfig,
                       ResourceDefinitionContext clusterDeploymentContext, GenericKubernetesResource clusterDeployment) {
        // snippet: README.md#4
        MemberDriver rooms = PodMemberDriver.builder(client, RoomTemplates.registry().register("v1", schedulerConfig)).build();
        MemberDriver clusters = CustomResourceMemberDriver.builder(client, clusterDeploymentContext, "clusters").template("v1", clusterDeployment).build();
        LockStore locks = KubernetesLockStore.create(client, "hotspare");
        LeaderElection leader = KubernetesLeaderElection.builder(client, "hotspare", "leader").build();
        UsageMetrics usage = KubernetesUsageMetrics.create(client);
        // end snippet
    }

    static void kubernetesMd(SchedulerConfig pongConfig, GenericKubernetesResource clusterDeploymentTemplate,
                             PoolSpec spec, ClaimStore claimStore) {
        // snippet: docs/kubernetes.md
        KubernetesClient client = new KubernetesClientBuilder().build();   // kubeconfig or in-cluster service account

        // Game rooms: one pod per room, scheduler configs by version
        RoomTemplates.Registry templates = RoomTemplates.registry().register("v1", pongConfig);
        PodMemberDriver rooms = PodMemberDriver.builder(client, templates)
                .nodePortServices(true)              // a NodePort service per room, for rooms.address(pool, id)
                .build();

        // Cluster-like members: your custom resource, Hive's ClusterDeployment here
        ResourceDefinitionContext cd = new ResourceDefinitionContext.Builder()
                .withGroup("hive.openshift.io").withVersion("v1").withKind("ClusterDeployment")
                .withPlural("clusterdeployments").withNamespaced(true).build();
        CustomResourceMemberDriver clusters = CustomResourceMemberDriver.builder(client, cd, "clusters")
                .template("v1", clusterDeploymentTemplate)
                .build();

        PoolController pool = PoolController.builder(spec).memberDriver(clusters).claimStore(claimStore).build().start();

        // Locks, leader election, usage
        LockStore locks = KubernetesLockStore.create(client, "hotspare-system");
        LeaderElection election = KubernetesLeaderElection.builder(client, "hotspare-system", "hotspare-leader").build();
        UsageMetrics usage = KubernetesUsageMetrics.create(client);
        // end snippet
    }
}
