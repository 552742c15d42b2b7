package dev.hotspare.redis;

import dev.hotspare.redis.internal.KeyLayout;
import dev.hotspare.validation.Names;

/**
 * The key layout of the Redis stores, in one place. Every part that comes from a caller is validated before
 * it becomes part of a key ({@link Names#requireDns1123Label} for prefixes, schedulers, rooms and metrics,
 * {@link dev.hotspare.fleet.lock.spi.LockKeys} for lock keys), so no caller can reach a key outside this layout.
 *
 * <pre>
 * {prefix}:{&lt;scheduler&gt;}:room:&lt;room&gt;          hash   status, s/n (last ping: epoch seconds, nanos), os/on (occupied since)
 * {prefix}:{&lt;scheduler&gt;}:rooms:&lt;status&gt;       zset   room names (score 0, so ordered by name)
 * {prefix}:{&lt;scheduler&gt;}:counts                 hash   creating/ready/allocated/occupied/terminating/error → count
 * {prefix}:{&lt;scheduler&gt;}:pings                  zset   non-terminating rooms by last ping (epoch µs)
 * {prefix}:{&lt;scheduler&gt;}:occupied               zset   occupied rooms by occupied-since (epoch µs)
 * {prefix}:{&lt;scheduler&gt;}:metric:&lt;cpu|mem&gt;      zset   non-terminating rooms by recorded usage
 * {prefix}:{&lt;scheduler&gt;}:stale                  string count of stale reports
 * {prefix}:{&lt;scheduler&gt;}:usage:&lt;metric&gt;        list   autoscaler points, oldest first
 * {prefix}:{&lt;scheduler&gt;}:usage-metrics          set    metrics that have a usage list
 * {prefix}:lock:{&lt;lock key&gt;}                    string "&lt;fencing token&gt; &lt;acquired ms&gt; &lt;lifetime ms&gt; &lt;owner token&gt;", PX ttl; expires = acquired + lifetime
 * {prefix}:lock:{&lt;lock key&gt;}:fence              string last fencing token issued for the key (never expires)
 * </pre>
 *
 * The part in braces is the Redis Cluster hash tag: every key of one scheduler (and the two keys of one
 * lock) live in one slot, so the multi-key scripts run on a cluster too. The room scripts all take the
 * scheduler's keys in one order ({@code dev/hotspare/redis/lua/room-keys.lua} in the jar), followed by the hashes
 * of the rooms a call is about.
 */
public final class RedisKeys {

    /** The prefix used when none is given. */
    public static final String DEFAULT_PREFIX = "hotspare";

    private final KeyLayout layout;

    private RedisKeys(String prefix) {
        this.layout = new KeyLayout(prefix);
    }

    /**
     * Keys under {@code prefix}.
     *
     * @throws dev.hotspare.validation.ValidationException if the prefix is not a DNS-1123 label
     * @param prefix the key prefix
     */
    public static RedisKeys withPrefix(String prefix) {
        return new RedisKeys(Names.requireDns1123Label("prefix", prefix));
    }

    /**
     * Keys under {@value #DEFAULT_PREFIX}.
     */
    public static RedisKeys defaults() {
        return new RedisKeys(DEFAULT_PREFIX);
    }

    /**
     * The prefix.
     */
    public String prefix() {
        return layout.prefix();
    }

    /** What builds the keys, for the stores. */
    KeyLayout layout() {
        return layout;
    }

    @Override
    public String toString() {
        return "RedisKeys[" + layout.prefix() + "]";
    }
}
