package dev.hotspare.fleet.events.internal;

import dev.hotspare.fleet.events.EventForwarder;
import dev.hotspare.fleet.events.EventForwarderProvider;
import dev.hotspare.fleet.events.FleetEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The built-in forwarder: writes each event as one INFO line to the {@code hotspare.events} logger. Plugin
 * name {@code logging}, so a config can say {@code forwarders: {logging: {audit: {enabled: true}}}}.
 */
public final class LoggingEventForwarder implements EventForwarder {

    private static final Logger EVENTS = LoggerFactory.getLogger("hotspare.events");

    private final String name;

    public LoggingEventForwarder(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return "logging/" + name;
    }

    @Override
    public void forward(FleetEvent event) {
        EVENTS.info("{} scheduler={} room={} at={} metadata={}", event.type(), event.scheduler(),
                event.room().orElse("-"), event.at(), event.metadata());
    }

    /** ServiceLoader entry for plugin {@code logging}. */
    public static final class Provider implements EventForwarderProvider {
        @Override
        public String plugin() {
            return "logging";
        }

        @Override
        public EventForwarder create(String name, Map<String, Object> config) {
            return new LoggingEventForwarder(name);
        }
    }
}
