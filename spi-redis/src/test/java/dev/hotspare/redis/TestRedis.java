package dev.hotspare.redis;

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

/**
 * The Redis the tests talk to. By default a real {@code redis-server} (the binary shipped in
 * {@code com.github.codemonstur:embedded-redis}) on a random free port, started once per test JVM with
 * persistence off; set {@code HOTSPARE_TEST_REDIS_URI} (e.g. {@code redis://localhost:6379/0}) to run the
 * contract suites against an external server instead. Fault tests always start their own server, because
 * they stop and restart it.
 */
final class TestRedis {

    /** The environment variable naming an external server for the contract suites. */
    static final String URI_VARIABLE = "HOTSPARE_TEST_REDIS_URI";

    /** Short timeouts and fast reconnects, so a test sees a stopped server quickly and a restarted one soon. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

    private static String sharedUri;
    private static StatefulRedisConnection<String, String> shared;

    private TestRedis() {
    }

    /** The URI of the shared server: {@code HOTSPARE_TEST_REDIS_URI}, or an embedded server started on first use. */
    static synchronized String uri() {
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

    /** The shared connection of the contract suites (created on first use, closed when the JVM exits). */
    static synchronized StatefulRedisConnection<String, String> connection() {
        if (shared == null) {
            Client client = Client.create(uri());
            shared = client.connect();
            Runtime.getRuntime().addShutdownHook(new Thread(client::close));
        }
        return shared;
    }

    /** A client with the settings a production user should copy: reject commands while disconnected, short timeouts. */
    record Client(RedisClient client, ClientResources resources) implements AutoCloseable {

        static Client create(String uri) {
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

        StatefulRedisConnection<String, String> connect() {
            return client.connect();
        }

        @Override
        public void close() {
            client.shutdown();
            resources.shutdown();
        }
    }

    /** An embedded redis-server on a random free port, in its own empty directory. */
    static final class Server implements AutoCloseable {
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
         */
        static Server start(boolean persistent) {
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

        String uri() {
            return "redis://127.0.0.1:" + port;
        }

        void stop() {
            try {
                server.stop();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Stops the server for good and deletes its directory (the AOF of a persistent one). */
        @Override
        public void close() {
            stop();
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Starts the same server again (same port, same directory, same settings). */
        void restart() {
            try {
                server.start();
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
