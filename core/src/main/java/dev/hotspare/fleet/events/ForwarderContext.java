package dev.hotspare.fleet.events;

import dev.hotspare.time.TaskScheduler;

import java.util.Objects;

/**
 * What the fleet hands to the forwarders it creates from scheduler configs.
 *
 * @param tasks where retries and timeouts are scheduled, and whose clock stamps deliveries
 */
public record ForwarderContext(TaskScheduler tasks) {

    /**
     * Checks the parts.
     *
     * @throws NullPointerException when {@code tasks} is missing
     * @param tasks where retries and timeouts are scheduled, and whose clock stamps deliveries
     */
    public ForwarderContext {
        Objects.requireNonNull(tasks, "tasks");
    }
}
