package dev.hotspare.testkit.servers;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A real Redis Cluster for tests: {@code masters} {@code redis-server} processes (the binary shipped in
 * {@code com.github.codemonstur:embedded-redis}) started with {@code cluster-enabled yes}, the 16,384 hash slots
 * divided between them with {@code CLUSTER ADDSLOTS}, and joined with {@code CLUSTER MEET}. No replicas and no
 * persistence: it tests what a key layout and the scripts do across slots and nodes, not failover.
 *
 * <pre>{@code
 * try (TestRedisCluster cluster = TestRedisCluster.start(3)) {
 *     StatefulRedisClusterConnection<String, String> connection = cluster.connect();
 *     RoomStatusStore rooms = new RedisRoomStatusStore(connection);
 * }
 * }</pre>
 */
public final class TestRedisCluster implements AutoCloseable {

    /** Slots of a Redis Cluster. */
    public static final int SLOTS = 16_384;

    private static TestRedisCluster shared;

    private final List<RedisServer> servers;
    private final List<Integer> ports;
    private final List<Path> dirs;
    private final RedisClusterClient client;

    private TestRedisCluster(List<RedisServer> servers, List<Integer> ports, List<Path> dirs) {
        this.servers = servers;
        this.ports = ports;
        this.dirs = dirs;
        List<RedisURI> seeds = ports.stream().map(port -> {
            RedisURI uri = RedisURI.create("127.0.0.1", port);
            uri.setTimeout(TestRedis.COMMAND_TIMEOUT);
            return uri;
        }).toList();
        this.client = RedisClusterClient.create(seeds);
        client.setOptions(ClusterClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(TestRedis.COMMAND_TIMEOUT)).build());
    }

    /**
     * A three-master cluster shared by every caller in this JVM, started on first use and stopped when the JVM exits.
     */
    public static synchronized TestRedisCluster shared() {
        if (shared == null) {
            shared = start(3);
            Runtime.getRuntime().addShutdownHook(new Thread(shared::close));
        }
        return shared;
    }

    /**
     * Starts a cluster of {@code masters} nodes and waits until every node reports {@code cluster_state:ok}.
     *
     * @param masters how many master nodes (at least 1)
     * @return the running cluster
     * @throws IllegalStateException when the cluster does not become ready within a minute
     */
    public static TestRedisCluster start(int masters) {
        if (masters < 1) {
            throw new IllegalArgumentException("masters: bad value '" + masters + "': must be at least 1");
        }
        List<RedisServer> servers = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        try {
            for (int i = 0; i < masters; i++) {
                int port = freeClusterPort();
                Path dir = Files.createTempDirectory("hotspare-redis-cluster-");
                RedisServer server = RedisServer.newRedisServer().port(port)
                        .setting("dir " + dir.toAbsolutePath())
                        .setting("cluster-enabled yes")
                        .setting("cluster-config-file nodes-" + port + ".conf")
                        .setting("cluster-node-timeout 5000")
                        .setting("save \"\"")
                        .setting("appendonly no")
                        .build();
                server.start();
                servers.add(server);
                ports.add(port);
                dirs.add(dir);
            }
            join(ports);
            return new TestRedisCluster(servers, ports, dirs);
        } catch (IOException e) {
            stopAll(servers, dirs);
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            stopAll(servers, dirs);
            throw e;
        }
    }

    /** Divides the slots evenly, introduces every node to the first, and waits for the cluster to agree. */
    private static void join(List<Integer> ports) {
        List<RedisClient> clients = new ArrayList<>();
        List<StatefulRedisConnection<String, String>> nodes = new ArrayList<>();
        try {
            for (int port : ports) {
                RedisClient node = RedisClient.create(RedisURI.create("127.0.0.1", port));
                clients.add(node);
                nodes.add(node.connect());
            }
            int n = ports.size();
            for (int i = 0; i < n; i++) {
                int from = SLOTS * i / n;
                int to = SLOTS * (i + 1) / n;
                nodes.get(i).sync().clusterAddSlots(IntStream.range(from, to).toArray());
            }
            for (int i = 1; i < n; i++) {
                nodes.get(i).sync().clusterMeet("127.0.0.1", ports.get(0));
            }
            // The nodes gossip until they agree; poll each one's view, for at most a minute (a slow machine).
            Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
            while (!nodes.stream().allMatch(node -> ready(node.sync().clusterInfo(), n))) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("the test Redis Cluster on ports " + ports + " did not become ready in a minute");
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while the test Redis Cluster started", e);
                }
            }
        } finally {
            nodes.forEach(StatefulRedisConnection::close);
            clients.forEach(RedisClient::shutdown);
        }
    }

    private static boolean ready(String info, int nodes) {
        return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + nodes)
                && info.contains("cluster_slots_assigned:" + SLOTS);
    }

    /**
     * A new cluster connection (Lettuce's cluster client, which follows MOVED and routes each key to its slot's node).
     *
     * @return a connection the caller closes
     */
    public StatefulRedisClusterConnection<String, String> connect() {
        return client.connect();
    }

    /**
     * The ports of the master nodes.
     *
     * @return one port per node
     */
    public List<Integer> ports() {
        return List.copyOf(ports);
    }

    @Override
    public void close() {
        client.shutdown();
        stopAll(servers, dirs);
    }

    private static void stopAll(List<RedisServer> servers, List<Path> dirs) {
        for (RedisServer server : servers) {
            try {
                server.stop();
            } catch (IOException | RuntimeException e) {
                // best effort: a test server that will not stop is gone with the JVM
            }
        }
        for (Path dir : dirs) {
            try (var files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            } catch (IOException e) {
                // best effort
            }
        }
    }

    /** A port free now whose cluster bus port (the port + 10,000) is free too and below 65,536. */
    private static int freeClusterPort() throws IOException {
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int attempt = 0; attempt < 1_000; attempt++) {
            int port = random.nextInt(20_000, 50_000);
            if (free(port) && free(port + 10_000)) {
                return port;
            }
        }
        throw new IOException("no free pair of ports (p, p + 10000) between 20000 and 60000");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
