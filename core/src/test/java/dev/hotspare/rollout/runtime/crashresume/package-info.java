/**
 * Rollout runtime tests, behaviour: Crash and resume: the controller saves before it acts and a new one rebuilds from the store; killing it anywhere changes nothing.
 */
package dev.hotspare.rollout.runtime.crashresume;
