/**
 * Rollout runtime tests, behaviour: A rollout's lifecycle through the controller and the store: one rollout per target, no delete in progress, window refusal at creation, safe spec changes.
 */
package dev.hotspare.rollout.runtime.lifecycle;
