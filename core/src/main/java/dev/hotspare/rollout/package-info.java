/**
 * Staged rollouts, the model and the decisions: {@link dev.hotspare.rollout.RolloutSpec}, the inventory, the
 * dry-run {@link dev.hotspare.rollout.RolloutPlanner} and the pure, total {@link
 * dev.hotspare.rollout.RolloutMachine} that maps (state, event, now) to a new state and commands. No I/O, no
 * clock.
 */
package dev.hotspare.rollout;
