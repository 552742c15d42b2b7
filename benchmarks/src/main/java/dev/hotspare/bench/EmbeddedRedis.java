package dev.hotspare.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One real {@code redis-server} (the binary shipped in {@code embedded-redis}) on a free local port, without
 * persistence, plus a Lettuce client for it: what the Redis benchmarks measure against.
 */
final class EmbeddedRedis implements AutoCloseable {

    private final RedisServer server;
    private final int port;
    private final RedisClient client;
    private final Path dir;

    private EmbeddedRedis(RedisServer server, int port, Path dir) {
        this.server = server;
        this.port = port;
        this.dir = dir;
        this.client = RedisClient.create(RedisURI.create(uri()));
    }

    static EmbeddedRedis start() {
        try {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Path dir = Files.createTempDirectory("hotspare-bench-redis-");
            RedisServer server = RedisServer.newRedisServer().port(port)
                    .setting("dir " + dir.toAbsolutePath())
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .build();
            server.start();
            return new EmbeddedRedis(server, port, dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    RedisClient client() {
        return client;
    }

    @Override
    public void close() {
        client.shutdown();
        try {
            server.stop();
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
