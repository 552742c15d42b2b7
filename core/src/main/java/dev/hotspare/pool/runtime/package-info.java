/**
 * Runs pools: {@link dev.hotspare.pool.runtime.PoolController} observes members and claims, asks the planner
 * and applies the plan, on a period and on every change; users claim through it and get a {@link
 * dev.hotspare.pool.runtime.ClaimHandle}. {@link dev.hotspare.pool.runtime.PoolListener} receives every plan
 * and the pool's KPIs.
 */
package dev.hotspare.pool.runtime;
