/**
 * Rollout runtime tests, behaviour: Prechecks on the controller: node health, device prechecks paced like the upgrade, failed devices left out.
 */
package dev.hotspare.rollout.runtime.prechecks;
