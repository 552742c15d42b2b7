package dev.hotspare.fleet.events;

/**
 * Sends {@link FleetEvent}s to another service (a matchmaker, an audit log, a metrics pipeline). Users
 * implement it; hotspare calls it on the dispatcher's own executor, never on the thread handling a ping or a
 * watcher tick, so a slow or failing forwarder cannot fail or slow either (▲ Maestro failed the API call).
 *
 * <p>Register programmatically with {@link dev.hotspare.fleet.events.EventDispatcher.Builder#add}, or ship an
 * {@link EventForwarderProvider} through {@link java.util.ServiceLoader}.
 */
public interface EventForwarder {

    /** A name for logs and delivery reports, e.g. {@code grpc/matchmaking}. */
    String name();

    /**
     * Delivers one event. May block (it runs on the forwarding executor). Throwing marks the delivery failed;
     * it is logged and reported, never propagated to the code that published the event.
     */
    void forward(FleetEvent event) throws Exception;
}
