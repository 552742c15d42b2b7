/**
 * Runs fleets: {@link dev.hotspare.fleet.runtime.Fleet#builder} wires the scheduler operations (updates,
 * scaling, queries), the room protocol ({@link dev.hotspare.fleet.runtime.RoomService}) and the {@link
 * dev.hotspare.fleet.runtime.internal.Worker} whose watchers observe each scheduler, ask the planner and apply the plan.
 * Every room is created or removed in one place, so every scale publishes the same event and reports the same
 * KPI to the {@link dev.hotspare.fleet.runtime.FleetListener}.
 */
package dev.hotspare.fleet.runtime;
