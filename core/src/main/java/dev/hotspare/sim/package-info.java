/**
 * Simulation on virtual time: {@link dev.hotspare.sim.PoolSimulation} replays a trace of claims through the
 * real pool controller and reports waits and cost; claim traces and the runningCount recommendation.
 */
package dev.hotspare.sim;
