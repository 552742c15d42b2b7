/**
 * hotspare on Kubernetes, through a fabric8 {@code KubernetesClient} the caller owns (the module ships the client
 * on the JDK's http client, no Netty or Vert.x): member drivers on pods ({@link dev.hotspare.kubernetes.PodMemberDriver},
 * game rooms) and on custom resources ({@link dev.hotspare.kubernetes.CustomResourceMemberDriver}, e.g. Hive's
 * ClusterDeployments), locks on Lease objects ({@link dev.hotspare.kubernetes.KubernetesLockStore}), leader
 * election ({@link dev.hotspare.kubernetes.KubernetesLeaderElection}) and usage from the metrics API
 * ({@link dev.hotspare.kubernetes.KubernetesUsageMetrics}). The RBAC rules they need ship as
 * {@code docs/kubernetes-rbac.yaml}, and the tests check every request against them.
 */
package dev.hotspare.kubernetes;
