package dev.hotspare.redis;

import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * {@link UsageHistory} on Redis: one list per (scheduler, metric), newest last. {@link #record} appends and
 * trims in one script (one round trip, and no reader ever sees the list longer than {@code keep});
 * {@link #latest} is one {@code LRANGE}. Points are stored as decimal strings that parse back to an equal
 * {@link BigDecimal}, scale included (plain notation, except for the rare negative scales, e.g. {@code 1E+3}).
 *
 * <p>Keys: see {@link RedisKeys}. Failures to reach Redis throw
 * {@link dev.hotspare.spi.StoreUnavailableException}. Thread-safe.
 */
public final class RedisUsageHistory implements UsageHistory {

    private static final String STORE = "redis usage history";

    private static final LuaScript RECORD = LuaScript.of("usage record", """
            -- KEYS: 1 usage list, 2 usage-metrics set; ARGV: 1 metric, 2 point, 3 keep
            redis.call('RPUSH', KEYS[1], ARGV[2])
            redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
            redis.call('SADD', KEYS[2], ARGV[1])
            return 1
            """);

    private static final LuaScript CLEAR = LuaScript.of("usage clear", """
            -- KEYS: 1 usage-metrics set; ARGV: 1 usage list key prefix (same hash tag, same slot)
            for _, metric in ipairs(redis.call('SMEMBERS', KEYS[1])) do
              redis.call('DEL', ARGV[1] .. metric)
            end
            return redis.call('DEL', KEYS[1])
            """);

    private final RedisAccess redis;
    private final RedisKeys keys;

    /** A history with keys under {@value RedisKeys#DEFAULT_PREFIX}. */
    public RedisUsageHistory(StatefulConnection<String, String> connection) {
        this(connection, RedisKeys.defaults());
    }

    /** A history on {@code connection} (standalone, Sentinel, master/replica or Cluster) with keys laid out by {@code keys}. */
    public RedisUsageHistory(StatefulConnection<String, String> connection, RedisKeys keys) {
        this.redis = new RedisAccess(connection, STORE);
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    @Override
    public void record(String scheduler, String metric, BigDecimal point, int keep) {
        check(scheduler, metric);
        if (keep < 1) {
            throw new ValidationException(Problem.of("keep", keep, "must keep at least one point"));
        }
        if (point == null) {
            throw new ValidationException(Problem.of("point", Problem.MISSING, "a point is required"));
        }
        String base = keys.scheduler(scheduler);
        redis.eval("record " + metric + " point", RECORD, ScriptOutputType.INTEGER,
                new String[] {base + "usage:" + metric, base + "usage-metrics"}, metric, text(point), Integer.toString(keep));
    }

    @Override
    public List<BigDecimal> latest(String scheduler, String metric, int count) {
        check(scheduler, metric);
        if (count <= 0) {
            return List.of();
        }
        List<String> values = redis.await("read " + metric + " points",
                redis.commands().lrange(keys.scheduler(scheduler) + "usage:" + metric, -count, -1));
        return values.stream().map(BigDecimal::new).toList();
    }

    @Override
    public void clear(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        String base = keys.scheduler(scheduler);
        redis.eval("clear usage of " + scheduler, CLEAR, ScriptOutputType.INTEGER,
                new String[] {base + "usage-metrics"}, base + "usage:");
    }

    /** A string that parses back to an equal BigDecimal: plain notation keeps any non-negative scale. */
    private static String text(BigDecimal point) {
        return point.scale() >= 0 ? point.toPlainString() : point.toString();
    }

    private static void check(String scheduler, String metric) {
        Names.requireDns1123Label("scheduler", scheduler);
        Names.requireDns1123Label("metric", metric);
    }
}
