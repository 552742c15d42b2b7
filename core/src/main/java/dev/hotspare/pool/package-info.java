/**
 * Warm pools, the model and the decisions: {@link dev.hotspare.pool.PoolSpec}, members and claims, and the pure
 * {@link dev.hotspare.pool.PoolPlanner} that returns a {@link dev.hotspare.pool.PoolPlan} (assignments oldest
 * first, power changes that refill the hot set, creates and deletes, with a reason for each). No I/O, no clock.
 */
package dev.hotspare.pool;
