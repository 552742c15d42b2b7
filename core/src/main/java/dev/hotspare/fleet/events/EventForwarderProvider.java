package dev.hotspare.fleet.events;

import java.util.Map;

/**
 * Creates {@link EventForwarder}s of one plugin kind from configuration, discovered with
 * {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/dev.hotspare.fleet.events.EventForwarderProvider}). Mirrors Maestro's forwarder plugins:
 * a scheduler config's {@code forwarders: <plugin>: <name>: {...}} creates one forwarder per name with the
 * provider whose {@link #plugin()} matches.
 */
public interface EventForwarderProvider {

    /** The plugin name used in configs, e.g. {@code grpc} or {@code logging}. */
    String plugin();

    /**
     * A forwarder called {@code name} configured by {@code config} (the map under
     * {@code forwarders.<plugin>.<name>}, including {@code enabled}, {@code forwardResponse} and
     * {@code metadata} when present).
     */
    EventForwarder create(String name, Map<String, Object> config);
}
