package dev.hotspare.fleet.events;

import java.util.concurrent.CompletableFuture;

/**
 * Sends {@link FleetEvent}s to another service (a matchmaker, an audit log, a metrics pipeline). Users
 * implement it; hotspare calls it on the dispatcher's own executor, never on the thread handling a ping or a
 * watcher tick, so a slow or failing forwarder cannot fail or slow either (▲ Maestro failed the API call).
 *
 * <p>Register programmatically with {@link dev.hotspare.fleet.events.EventDispatcher.Builder#add}, or ship an
 * {@link EventForwarderProvider} through {@link java.util.ServiceLoader}.
 */
public interface EventForwarder {

    /**
     * A name for logs and delivery reports, e.g. {@code grpc/matchmaking}.
     */
    String name();

    /**
     * Delivers one event. May block (it runs on the forwarding executor). Throwing marks the delivery failed;
     * it is logged and reported, never propagated to the code that published the event.
     *
     * @throws Exception when the delivery failed; its message (never its class name) is what a caller sees
     */
    void forward(FleetEvent event) throws Exception;

    /**
     * Delivers one event without holding the forwarding executor while it travels: a forwarder that waits on the
     * network (with retries and backoff) overrides this and completes the future when the delivery succeeded or
     * finally failed. The default runs {@link #forward} and reports how it ended.
     *
     * @return a future that completes normally on success and exceptionally on failure
     */
    default CompletableFuture<Void> forwardAsync(FleetEvent event) {
        try {
            forward(event);
            return CompletableFuture.completedFuture(null);
        } catch (Exception | LinkageError e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
