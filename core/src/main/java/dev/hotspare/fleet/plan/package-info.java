/**
 * The fleet's decisions as pure functions: {@link dev.hotspare.fleet.plan.FleetPlanner} turns what a watcher
 * observed of one scheduler ({@link dev.hotspare.fleet.plan.FleetPlanner.FleetObservation}) into the tick's {@link
 * dev.hotspare.fleet.plan.FleetPlanner.FleetPlan} — room statuses to register or forget, outdated and dead rooms, the
 * autoscaler's decision, the state transition — and ranks rooms for every scale-down. No I/O, no clock.
 */
package dev.hotspare.fleet.plan;
