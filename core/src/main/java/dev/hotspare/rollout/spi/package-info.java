/**
 * The ports a rollout backend implements: rollout state with optimistic concurrency ({@link
 * dev.hotspare.rollout.spi.RolloutStore}), the channel agents pull ops from, and leader election.
 */
package dev.hotspare.rollout.spi;
