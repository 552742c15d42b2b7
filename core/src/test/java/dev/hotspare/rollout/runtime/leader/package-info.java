/**
 * Rollout runtime tests, behaviour: The services op follows the leader election.
 */
package dev.hotspare.rollout.runtime.leader;
