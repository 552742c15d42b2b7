/**
 * The game-fleet server: Maestro's HTTP API (rooms, schedulers, releases, locks, KPIs) over hotspare's scheduler
 * operations, room service and worker. {@link dev.hotspare.fleetserver.FleetService} is the embeddable service
 * (built in memory or on the Redis, PostgreSQL and Kubernetes adapters), {@link dev.hotspare.fleetserver.FleetServiceSettings}
 * turns flags and {@code HOTSPARE_*} variables into a deployment, and {@link dev.hotspare.fleetserver.FleetServerMain}
 * is the entry point of the runnable {@code hotspare-fleet-server.jar}. See docs/fleet-service.md.
 */
package dev.hotspare.fleetserver;
