package dev.hotspare.redis;

/**
 * The examples' door to spi-redis's test server ({@link TestRedis}, package-private there and reused through
 * the module's test-jar): an embedded {@code redis-server}, or {@code HOTSPARE_TEST_REDIS_URI}.
 */
public final class SharedTestRedis {

    private SharedTestRedis() {
    }

    /** The URI of the shared test server, started on first use. */
    public static String uri() {
        return TestRedis.uri();
    }
}
