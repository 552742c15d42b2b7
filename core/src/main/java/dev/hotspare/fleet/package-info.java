/**
 * Game-room fleets, the model: a Maestro-style scheduler config ({@link dev.hotspare.fleet.SchedulerConfig},
 * read from YAML or JSON and validated with every problem reported at once), the room protocol and room
 * statuses, dead-room rules and exact quantities. Pure values; the decisions live in {@code fleet.plan} and
 * {@code fleet.autoscale}, the ports in {@code fleet.spi}, the runtime in {@code fleet.runtime}.
 */
package dev.hotspare.fleet;
