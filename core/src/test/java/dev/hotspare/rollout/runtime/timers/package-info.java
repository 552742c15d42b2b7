/**
 * Rollout runtime tests, behaviour: Timers on virtual time: op deadlines, device retries, a rollout run to its end by the controller's wake-ups.
 */
package dev.hotspare.rollout.runtime.timers;
