package dev.hotspare.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

/**
 * The fabric8 mock API server in CRUD mode (real HTTP, watches over websockets, resourceVersion conflicts),
 * plus a client on the JDK http client (what the module ships with) and a reader of the server's request log.
 * Public, and shipped in this module's test jar, so the examples' end-to-end tests reuse it.
 */
public final class MockKube implements AutoCloseable, AfterAllCallback {

    // Held strongly: java.util.logging forgets levels set on loggers nobody references.
    private static final java.util.logging.Logger MOCK_SERVER_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_SERVER_LOG.setLevel(java.util.logging.Level.WARNING);
    }

    public final KubernetesMockServer server;
    /** The client under test: what the module's classes are given. */
    private final KubernetesMixedDispatcher dispatcher;
    public final KubernetesClient client;
    /**
     * A second client for the tests' own set-up and for playing other actors (Hive, kubectl, metrics-server). Its
     * requests carry their own user agent, so write counts and the RBAC check leave them out.
     */
    public final KubernetesClient fixture;
    static final String FIXTURE_AGENT = "hotspare-test-fixture";
    private final List<Request> log = new ArrayList<>();

    /** One request as the server recorded it; {@code fixture} if the test's own client sent it. */
    record Request(String method, String path, boolean fixture) {
        boolean isWrite() {
            return !method.equals("GET");
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    public MockKube() {
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        dispatcher = new KubernetesMixedDispatcher(responses);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, dispatcher, false);
        server.start();
        client = server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory()));
        fixture = server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory())
                .editOrNewConfig().withUserAgent(FIXTURE_AGENT).endConfig());
    }

    /** Every request recorded since the last call (drains the server's request log). */
    synchronized List<Request> drain() {
        List<Request> out = new ArrayList<>();
        try {
            RecordedRequest r;
            while ((r = server.takeRequest(0, TimeUnit.MILLISECONDS)) != null) {
                Request request = new Request(r.getMethod(), r.getPath(), FIXTURE_AGENT.equals(r.getHeader("User-Agent")));
                out.add(request);
                log.add(request);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return out;
    }

    /** The writes (anything but GET) the client under test sent, among {@link #drain()}. */
    List<Request> drainWrites() {
        return drain().stream().filter(r -> r.isWrite() && !r.fixture()).toList();
    }

    /** Every request this server has seen, drained or not. */
    synchronized List<Request> all() {
        drain();
        return List.copyOf(log);
    }

    /**
     * Drops every open watch from the server side, as a load balancer or an API server restart would. The mock
     * exposes no API for it, so this reaches into its private fields; the clients then reconnect on their own.
     *
     * @return how many watches were dropped
     */
    int dropWatches() {
        try {
            var crudField = KubernetesMixedDispatcher.class.getDeclaredField("kubernetesCrudDispatcher");
            crudField.setAccessible(true);
            Object crud = crudField.get(dispatcher);
            var listenersField = crud.getClass().getDeclaredField("watchEventListeners");
            listenersField.setAccessible(true);
            int dropped = 0;
            for (Object listener : List.copyOf((java.util.Set<?>) listenersField.get(crud))) {
                var socketField = listener.getClass().getDeclaredField("webSocketRef");
                socketField.setAccessible(true);
                var socket = (io.fabric8.mockwebserver.http.WebSocket) ((java.util.concurrent.atomic.AtomicReference<?>) socketField.get(listener)).get();
                if (socket != null) {
                    socket.close(1000, "dropped by test");
                    dropped++;
                }
            }
            return dropped;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the mock server's internals changed", e);
        }
    }

    @Override
    public void close() {
        client.close();
        fixture.close();
        server.destroy();
    }

    /**
     * As a JUnit extension ({@code @RegisterExtension static final MockKube kube = new MockKube();}): after a
     * test class, every request the module sent must be covered by docs/kubernetes-rbac.yaml; then the server stops.
     */
    @Override
    public void afterAll(ExtensionContext context) {
        try {
            RbacCoverage.check(all());
        } finally {
            close();
        }
    }
}
