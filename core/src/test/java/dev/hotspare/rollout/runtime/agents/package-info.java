/**
 * Rollout runtime tests, behaviour: The agent-author helper: idempotent ops answered from a journal.
 */
package dev.hotspare.rollout.runtime.agents;
