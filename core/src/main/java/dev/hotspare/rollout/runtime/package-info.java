/**
 * Runs rollouts: {@link dev.hotspare.rollout.runtime.RolloutController} saves each decision before acting on
 * it, so a new controller carries on after a crash; {@link dev.hotspare.rollout.runtime.RolloutAgent} helps
 * agents answer re-sent ops from their journal.
 */
package dev.hotspare.rollout.runtime;
