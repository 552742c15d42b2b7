/**
 * Rollout runtime tests, behaviour: Rollout progress reported to the feature's listener.
 */
package dev.hotspare.rollout.runtime.progress;
