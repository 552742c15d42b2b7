package dev.hotspare.fleet.events;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/** A user plug-in found through ServiceLoader in tests: records what it receives. */
public final class RecordingForwarderProvider implements EventForwarderProvider {

    public static final List<String> RECEIVED = new CopyOnWriteArrayList<>();

    @Override
    public String plugin() {
        return "recording";
    }

    @Override
    public EventForwarder create(String name, Map<String, Object> config) {
        return new EventForwarder() {
            @Override
            public String name() {
                return "recording/" + name + config.getOrDefault("metadata", "");
            }

            @Override
            public void forward(FleetEvent event) {
                RECEIVED.add(name + ":" + event.type());
            }
        };
    }
}
