package dev.hotspare.testkit.servers;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The fabric8 mock API server in CRUD mode (real HTTP, watches over websockets, resourceVersion conflicts),
 * plus a client on the JDK http client (what {@code hotspare-spi-kubernetes} ships with), a second client for
 * the test's own set-up, and a reader of the server's request log.
 *
 * <p>Use it as a JUnit extension, which stops the server after the test class:
 * <pre>{@code
 * @RegisterExtension
 * static final MockKubernetes kube = MockKubernetes.checkingRbac(Path.of("..", "docs", "kubernetes-rbac.yaml"));
 * }</pre>
 * or on its own, closing it when done. Needs {@code io.fabric8:kubernetes-server-mock},
 * {@code io.fabric8:kubernetes-client} and {@code io.fabric8:kubernetes-httpclient-jdk} on the test class path
 * (optional dependencies of the testkit).
 */
public final class MockKubernetes implements AutoCloseable, AfterAllCallback {

    /** The user agent of {@link #fixture}'s requests, by which the request log tells them apart. */
    public static final String FIXTURE_AGENT = "hotspare-test-fixture";

    // Held strongly: java.util.logging forgets levels set on loggers nobody references.
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
    }

    /** The mock API server, for expectations such as {@code expectCustomResource}. */
    public final KubernetesMockServer server;
    /** The client under test: what the code under test is given. */
    public final KubernetesClient client;
    /**
     * A second client for the tests' own set-up and for playing other actors (Hive, kubectl, metrics-server). Its
     * requests carry the user agent {@value #FIXTURE_AGENT}, so write counts and the RBAC check leave them out.
     */
    public final KubernetesClient fixture;

    private final KubernetesMixedDispatcher dispatcher;
    /** What {@link #afterAll} checks in the request log before stopping the server. */
    private final Consumer<List<Request>> afterAllCheck;
    private final List<Request> log = new ArrayList<>();

    /**
     * One request as the server recorded it.
     *
     * @param method  the HTTP method
     * @param path    the path with its query string
     * @param fixture whether {@link #fixture} (the test's own client) sent it
     */
    public record Request(String method, String path, boolean fixture) {

        public Request {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(path, "path");
        }

        /**
         * Whether the request may change something: anything but a GET.
         */
        public boolean isWrite() {
            return !method.equals("GET");
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    /** A started server whose extension only stops it after the test class. */
    public MockKubernetes() {
        this(requests -> { });
    }

    private MockKubernetes(Consumer<List<Request>> afterAllCheck) {
        this.afterAllCheck = afterAllCheck;
        Map<ServerRequest, Queue<ServerResponse>> responses = new HashMap<>();
        dispatcher = new KubernetesMixedDispatcher(responses);
        server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, dispatcher, false);
        server.start();
        // HTTP/1.1: on plain HTTP the JDK client would upgrade to HTTP/2 by h2c, a path no real API server (TLS,
        // ALPN) takes, and one suspected of leaving an informer's first list unanswered under load.
        client = server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory())
                .editOrNewConfig().withHttp2Disable(true).endConfig());
        fixture = server.createClient(b -> b.withHttpClientFactory(new JdkHttpClientFactory())
                .editOrNewConfig().withHttp2Disable(true).withUserAgent(FIXTURE_AGENT).endConfig());
    }

    /**
     * A started server whose extension, after the test class, checks that every request {@link #client} sent is
     * granted by the Role and ClusterRole rules in {@code rbacFile} (see {@link RbacCoverage}), then stops it.
     *
     * @param rbacFile the RBAC manifest (Roles and ClusterRoles) the client's requests must fit
     * @return a started server whose extension, after the test class, checks that every request {@link #client} sent
     *         is granted by the Role and ClusterRole rules in {@code rbacFile} (see {@link RbacCoverage}), then stops
     *         it
     */
    public static MockKubernetes checkingRbac(Path rbacFile) {
        RbacCoverage coverage = RbacCoverage.of(rbacFile);
        return new MockKubernetes(coverage::check);
    }

    /**
     * Every request recorded since the last call (drains the server's request log).
     */
    public synchronized List<Request> drain() {
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

    /**
     * The writes (anything but GET) the client under test sent, among {@link #drain()}.
     */
    public List<Request> drainWrites() {
        return drain().stream().filter(r -> r.isWrite() && !r.fixture()).toList();
    }

    /**
     * Every request this server has seen, drained or not.
     */
    public synchronized List<Request> all() {
        drain();
        return List.copyOf(log);
    }

    /**
     * Drops every open watch from the server side, as a load balancer or an API server restart would. The mock
     * exposes no API for it, so this reaches into its private fields; the clients then reconnect on their own.
     *
     * @return how many watches were dropped
     * @throws IllegalStateException if the mock server's internals changed (a fabric8 upgrade)
     */
    public int dropWatches() {
        int dropped = 0;
        for (Object listener : List.copyOf(watchListeners())) {
            try {
                var socketField = listener.getClass().getDeclaredField("webSocketRef");
                socketField.setAccessible(true);
                var socket = (WebSocket) ((AtomicReference<?>) socketField.get(listener)).get();
                if (socket != null) {
                    socket.close(1000, "dropped by test");
                    dropped++;
                }
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("the mock server's internals changed", e);
            }
        }
        return dropped;
    }

    /** The mock's open watches (its CRUD dispatcher's listeners), live; the mock has no API for them. */
    private Set<?> watchListeners() {
        try {
            var crudField = KubernetesMixedDispatcher.class.getDeclaredField("kubernetesCrudDispatcher");
            crudField.setAccessible(true);
            Object crud = crudField.get(dispatcher);
            var listenersField = crud.getClass().getDeclaredField("watchEventListeners");
            listenersField.setAccessible(true);
            return (Set<?>) listenersField.get(crud);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the mock server's internals changed", e);
        }
    }

    /**
     * Closes both clients and stops the server once the clients' watches have left it.
     *
     * <p>When a watch closes, the mock's watch listener drains its executor on the server's event loop (for up to a
     * minute); a server stop begun meanwhile waits a fixed 10 s for that loop and then fails ("Unable to close
     * MockWebServer"), which a loaded machine reached. So the stop waits until the server holds no watch.
     */
    @Override
    public void close() {
        client.close();
        fixture.close();
        try {
            Awaitility.await("the closed clients' watches to leave the mock server").atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(50)).until(() -> watchListeners().isEmpty());
        } catch (ConditionTimeoutException stillOpen) {
            // A watch the server never saw close: stop anyway; the stop itself says whether it could.
        }
        server.destroy();
    }

    /**
     * As a JUnit extension: after a test class, runs the RBAC check if this server was made by
     * {@link #checkingRbac}; then the server stops.
     */
    @Override
    public void afterAll(ExtensionContext context) {
        try {
            afterAllCheck.accept(all());
        } finally {
            close();
        }
    }
}
