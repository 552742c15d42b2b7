/**
 * {@link dev.hotspare.examples.rollout.RolloutDemo}: a staged rollout of nodes and labelled device groups with
 * simulated agents that fail and retry, and a controller that crashes midway and carries on from its store, all on
 * virtual time. See docs/rollouts.md.
 */
package dev.hotspare.examples.rollout;
