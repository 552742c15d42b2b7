package dev.hotspare.fleet.events;

import dev.hotspare.time.TaskScheduler;
import java.util.Objects;
import java.util.Map;

/**
 * Creates {@link EventForwarder}s of one plugin kind from configuration, discovered with
 * {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/dev.hotspare.fleet.events.EventForwarderProvider}). Mirrors Maestro's forwarder plugins:
 * a scheduler config's {@code forwarders: <plugin>: <name>: {...}} creates one forwarder per name with the
 * provider whose {@link #plugin()} matches.
 */
public interface EventForwarderProvider {

    /**
     * The plugin name used in configs, e.g. {@code grpc}, {@code logging} or {@code webhook}.
     */
    String plugin();

    /**
     * A forwarder called {@code name} configured by {@code config} (the map under
     * {@code forwarders.<plugin>.<name>}, including {@code enabled}, {@code forwardResponse} and
     * {@code metadata} when present).
     *
     * @param name   the forwarder's name in the config
     * @param config its settings
     */
    EventForwarder create(String name, Map<String, Object> config);

    /**
     * As {@link #create(String, Map)}, with what the fleet offers forwarders: the task scheduler to retry on. A
     * provider whose forwarders retry or time out overrides this one; the default ignores the context.
     *
     * @param name    the forwarder's name in the config
     * @param config  its settings
     * @param context the fleet's task scheduler
     * @return the forwarder
     */
    default EventForwarder create(String name, Map<String, Object> config, ForwarderContext context) {
        return create(name, config);
    }

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
}
