package dev.hotspare.testkit.servers;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Objects;

/**
 * The Redis tests talk to. By default a real {@code redis-server} (the binary shipped in
 * {@code com.github.codemonstur:embedded-redis}) on a random free port, started once per test JVM with
 * persistence off; set {@value #URI_VARIABLE} (e.g. {@code redis://localhost:6379/0}) to run against an external
 * server instead. Fault tests start a {@link Server} of their own, because they stop and restart it.
 *
 * <p>Needs {@code io.lettuce:lettuce-core} and {@code com.github.codemonstur:embedded-redis} on the test class
 * path (optional dependencies of the testkit). Tests sharing the server should use keys or names no other test
 * uses (a random scheduler name, a key prefix), so the server can also be an external one that is reused.
 *
 * <pre>{@code
 * RoomStatusStore rooms = new RedisRoomStatusStore(TestRedis.connection());
 * }</pre>
 */
public final class TestRedis {

    /** The environment variable naming an external server for the shared {@link #uri()}. */
    public static final String URI_VARIABLE = "HOTSPARE_TEST_REDIS_URI";

    /** Short timeouts and fast reconnects, so a test sees a stopped server quickly and a restarted one soon. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

    private static String sharedUri;
    private static StatefulRedisConnection<String, String> shared;

    private TestRedis() {
    }

    /**
     * The URI of the shared server: {@value #URI_VARIABLE}, or an embedded server started on first use.
     */
    public static synchronized String uri() {
        if (sharedUri == null) {
            String external = System.getenv(URI_VARIABLE);
            if (external != null && !external.isBlank()) {
                sharedUri = external;
            } else {
                Server server = Server.start(false);
                sharedUri = server.uri();
                Runtime.getRuntime().addShutdownHook(new Thread(server::close));
            }
        }
        return sharedUri;
    }

    /**
     * A connection to the shared server, shared by every caller (created on first use, closed when the JVM exits).
     *
     * @return a connection to the shared server, shared by every caller (created on first use, closed when the JVM
     *         exits)
     */
    public static synchronized StatefulRedisConnection<String, String> connection() {
        if (shared == null) {
            Client client = Client.create(uri());
            shared = client.connect();
            Runtime.getRuntime().addShutdownHook(new Thread(client::close));
        }
        return shared;
    }

    /**
     * A Lettuce client with the settings a production user should copy: commands are rejected while disconnected
     * (instead of queueing until the server is back), commands time out after {@link #COMMAND_TIMEOUT}, and
     * reconnect attempts come every 50 ms. Closing it shuts the client and its resources down.
     *
     * @param client    the Lettuce client
     * @param resources its own resources (threads), shut down with it
     */
    public record Client(RedisClient client, ClientResources resources) implements AutoCloseable {

        /**
         * Checks both parts are present.
         *
         * @param client the Lettuce client
         * @param resources its own resources (threads), shut down with it
         */
        public Client {
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(resources, "resources");
        }

        /**
         * A client for {@code uri} (e.g. {@link Server#uri()}).
         *
         * @param uri the server, e.g. redis://localhost:6379
         */
        public static Client create(String uri) {
            Objects.requireNonNull(uri, "uri");
            ClientResources resources = ClientResources.builder()
                    .reconnectDelay(Delay.constant(Duration.ofMillis(50))).build();
            RedisURI redisUri = RedisURI.create(uri);
            redisUri.setTimeout(COMMAND_TIMEOUT);
            RedisClient client = RedisClient.create(resources, redisUri);
            client.setOptions(ClientOptions.builder()
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .timeoutOptions(TimeoutOptions.enabled(COMMAND_TIMEOUT))
                    .build());
            return new Client(client, resources);
        }

        /**
         * A new connection; closed with the client.
         */
        public StatefulRedisConnection<String, String> connect() {
            return client.connect();
        }

        @Override
        public void close() {
            client.shutdown();
            resources.shutdown();
        }
    }

    /**
     * An embedded {@code redis-server} of a test's own, on a random free port, in its own empty directory: for
     * tests that stop and restart a server, which they must never do to the shared one.
     */
    public static final class Server implements AutoCloseable {
        private final RedisServer server;
        private final int port;
        private final Path dir;

        private Server(RedisServer server, int port, Path dir) {
            this.server = server;
            this.port = port;
            this.dir = dir;
        }

        /**
         * Starts a server. Without persistence nothing survives a restart (no RDB snapshots, no AOF); with it,
         * every write is appended and fsynced before the reply.
         *
         * @param persistent whether the server keeps an append-only file (survives a restart)
         */
        public static Server start(boolean persistent) {
            try {
                int port = freePort();
                Path dir = Files.createTempDirectory("hotspare-redis-");
                RedisServer server = RedisServer.newRedisServer()
                        .port(port)
                        .setting("dir " + dir.toAbsolutePath())
                        .setting("save \"\"")
                        .setting("appendonly " + (persistent ? "yes" : "no"))
                        .setting("appendfsync always")
                        .build();
                server.start();
                return new Server(server, port, dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /**
         * The server's URI, {@code redis://127.0.0.1:<port>}.
         */
        public String uri() {
            return "redis://127.0.0.1:" + port;
        }

        /** Stops the server, keeping its port and directory for {@link #restart()}. */
        public void stop() {
            try {
                server.stop();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Starts the same server again (same port, same directory, same settings). */
        public void restart() {
            try {
                server.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Stops the server for good and deletes its directory (the AOF of a persistent one). */
        @Override
        public void close() {
            stop();
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0)) {
                socket.setReuseAddress(true);
                return socket.getLocalPort();
            }
        }
    }
}
