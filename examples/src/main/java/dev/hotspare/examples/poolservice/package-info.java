/**
 * The cluster-pool service: a Hive-style pool (runningCount hot spares, FIFO claims, hibernateAfter) in memory or on
 * Kubernetes {@code ClusterDeployment} custom resources, claimed from stdin or a script, printing every decision
 * with its reason. {@link dev.hotspare.examples.poolservice.PoolServiceCommand} is its command line
 * ({@code java -jar hotspare-examples.jar pool-service}); {@link dev.hotspare.examples.poolservice.StubProvisioner}
 * plays Hive on clusters without it. See docs/pool-service.md.
 */
package dev.hotspare.examples.poolservice;
