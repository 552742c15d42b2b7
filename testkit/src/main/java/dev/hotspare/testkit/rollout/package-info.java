/**
 * Test support for the rollout feature: the contract suites every {@code RolloutStore},
 * {@code RolloutAgentChannel} and {@code LeaderElection} backend runs. A backend subclasses a suite and returns a
 * fresh store, channel or election. {@link dev.hotspare.testkit.rollout.RolloutGenerators} generates specs and
 * inventories for users' own rollout properties.
 */
package dev.hotspare.testkit.rollout;
