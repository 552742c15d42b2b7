package dev.hotspare.fleet.autoscale;

import java.time.Instant;

/**
 * A READY room that a scale-down may remove.
 *
 * @param name      room name
 * @param outdated  whether it runs an older major version than the scheduler's current one
 * @param createdAt when it was created
 */
public record ReadyRoom(String name, boolean outdated, Instant createdAt) {
}
