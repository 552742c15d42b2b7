/**
 * Pool runtime tests, by behaviour: the pool's KPIs: claims served hot, warm or cold with their wait and its split by stage, members per state, scale operations.
 */
package dev.hotspare.pool.runtime.kpis;
