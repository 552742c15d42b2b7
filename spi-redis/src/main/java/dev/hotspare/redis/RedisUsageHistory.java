package dev.hotspare.redis;

import dev.hotspare.fleet.spi.UsageHistory;
import dev.hotspare.redis.internal.KeyLayout;
import dev.hotspare.redis.internal.RedisAccess;
import dev.hotspare.redis.internal.Scripts;
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
 * trims in one script, {@code usage-record.lua} (one round trip, and no reader ever sees the list longer than
 * {@code keep});
 * {@link #latest} is one {@code LRANGE}. Points are stored as decimal strings that parse back to an equal
 * {@link BigDecimal}, scale included (plain notation, except for the rare negative scales, e.g. {@code 1E+3}).
 *
 * <p>Keys: see {@link RedisKeys}. Failures to reach Redis throw
 * {@link dev.hotspare.spi.StoreUnavailableException}. Thread-safe.
 */
public final class RedisUsageHistory implements UsageHistory {

    private static final String STORE = "redis usage history";

    private final RedisAccess redis;
    private final KeyLayout keys;

    /**
     * A history with keys under {@value RedisKeys#DEFAULT_PREFIX}.
     */
    public RedisUsageHistory(StatefulConnection<String, String> connection) {
        this(connection, RedisKeys.defaults());
    }

    /**
     * A history on {@code connection} (standalone, Sentinel, master/replica or Cluster) with keys laid out by {@code keys}.
     */
    public RedisUsageHistory(StatefulConnection<String, String> connection, RedisKeys keys) {
        this.redis = new RedisAccess(connection, STORE);
        this.keys = Objects.requireNonNull(keys, "keys").layout();
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
        redis.eval("record " + metric + " point", Scripts.USAGE_RECORD, ScriptOutputType.INTEGER,
                new String[] {keys.usage(scheduler, metric), keys.usageMetrics(scheduler)}, metric, text(point), Integer.toString(keep));
    }

    @Override
    public List<BigDecimal> latest(String scheduler, String metric, int count) {
        check(scheduler, metric);
        if (count <= 0) {
            return List.of();
        }
        List<String> values = redis.await("read " + metric + " points",
                redis.commands().lrange(keys.usage(scheduler, metric), -count, -1));
        return values.stream().map(BigDecimal::new).toList();
    }

    @Override
    public void clear(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        redis.eval("clear usage of " + scheduler, Scripts.USAGE_CLEAR, ScriptOutputType.INTEGER,
                new String[] {keys.usageMetrics(scheduler)}, keys.usagePrefix(scheduler));
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
