package dev.hotspare.redis;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.spi.RoomStatusStore;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@link RoomStatusStore} on Redis, through a connection the caller owns.
 *
 * <p>A report ({@link #update}, and so {@code ping}/{@code status}) is one Lua script, one round trip: it
 * applies {@link RoomProtocol} (stale reports counted, nothing leaves terminating, terminated removes), moves
 * the room between the per-status sorted sets, keeps the last-ping and occupied-since sorted sets, adjusts the
 * counts hash and returns the counts. {@link #counts} is one {@code HMGET}; the dead-room queries are
 * {@code ZRANGEBYSCORE} on the ping and occupied-since sets; {@link #roomsOrderedByMetric} is one
 * {@code ZRANGE} with a limit. {@link #remove} and terminated delete every key and member of the room.
 *
 * <p>Timestamps are stored exactly (epoch seconds and nanos) for the protocol's staleness check; the sorted
 * sets score them in epoch microseconds, so the dead-room cut-offs compare at microsecond precision.
 * A usage recorded with {@link #setRoomMetric} for a room the store does not know, or a terminating one, is
 * dropped (storing it would leak a key for a room that may never report).
 *
 * <p>Keys: see {@link RedisKeys}. Failures to reach Redis throw
 * {@link dev.hotspare.spi.StoreUnavailableException}. Thread-safe; callers on several threads share the
 * connection and Lettuce pipelines their commands.
 */
public final class RedisRoomStatusStore implements RoomStatusStore {

    private static final String STORE = "redis room status store";

    /** Index of each status's sorted set in the scripts' KEYS, after the fixed keys. */
    private static final List<RoomStatus> INDEXED = List.of(RoomStatus.CREATING, RoomStatus.READY, RoomStatus.OCCUPIED, RoomStatus.TERMINATING);

    // KEYS: 1 room hash, 2 counts, 3 pings, 4 occupied, 5 stale, 6 cpu, 7 mem, 8..11 rooms:<status> for
    // creating, ready, occupied, terminating. Room keys and member names are arguments, never built in Lua.
    private static final String COMMON = """
            local statusIndex = {creating = 8, ready = 9, occupied = 10, terminating = 11}
            local function counts()
              return redis.call('HMGET', KEYS[2], 'creating', 'ready', 'occupied', 'terminating')
            end
            local function forget(room, status)
              redis.call('DEL', KEYS[1])
              redis.call('ZREM', KEYS[statusIndex[status]], room)
              redis.call('HINCRBY', KEYS[2], status, -1)
              redis.call('ZREM', KEYS[3], room)
              redis.call('ZREM', KEYS[4], room)
              redis.call('ZREM', KEYS[6], room)
              redis.call('ZREM', KEYS[7], room)
            end
            """;

    private static final LuaScript UPDATE = LuaScript.of("room update", COMMON + """
            -- ARGV: 1 room, 2 status, 3 epoch seconds, 4 nanos, 5 epoch micros (score)
            -- Reply, flat (one list for the client to decode): outcome, previous status or nil, then the four
            -- counts. A missing status or count is false in Lua, never nil, so the table has no holes.
            local room, status = ARGV[1], ARGV[2]
            local seconds, nanos = tonumber(ARGV[3]), tonumber(ARGV[4])
            local current = redis.call('HMGET', KEYS[1], 'status', 's', 'n')
            local previous = current[1]
            if previous then
              local lastSeconds, lastNanos = tonumber(current[2]), tonumber(current[3])
              if seconds < lastSeconds or (seconds == lastSeconds and nanos < lastNanos) then
                redis.call('INCR', KEYS[5])
                return {'STALE', previous, unpack(counts())}
              end
              if previous == 'terminating' and status ~= 'terminating' and status ~= 'terminated' then
                return {'REJECTED', previous, unpack(counts())}
              end
            end
            if status == 'terminated' then
              if previous then
                forget(room, previous)
              end
              return {'APPLIED', previous, unpack(counts())}
            end
            if previous ~= status then
              if previous then
                redis.call('ZREM', KEYS[statusIndex[previous]], room)
                redis.call('HINCRBY', KEYS[2], previous, -1)
              end
              redis.call('ZADD', KEYS[statusIndex[status]], 0, room)
              redis.call('HINCRBY', KEYS[2], status, 1)
            end
            if previous == status then
              -- A keep-alive: only the last ping moves.
              redis.call('HSET', KEYS[1], 's', ARGV[3], 'n', ARGV[4])
            else
              redis.call('HSET', KEYS[1], 'status', status, 's', ARGV[3], 'n', ARGV[4])
            end
            if status == 'occupied' then
              if previous ~= 'occupied' then
                redis.call('HSET', KEYS[1], 'os', ARGV[3], 'on', ARGV[4])
                redis.call('ZADD', KEYS[4], ARGV[5], room)
              end
            elseif previous == 'occupied' then
              redis.call('HDEL', KEYS[1], 'os', 'on')
              redis.call('ZREM', KEYS[4], room)
            end
            if status == 'terminating' then
              -- Terminating rooms are never dead-by-ping nor offered by usage.
              redis.call('ZREM', KEYS[3], room)
              redis.call('ZREM', KEYS[6], room)
              redis.call('ZREM', KEYS[7], room)
            else
              redis.call('ZADD', KEYS[3], ARGV[5], room)
            end
            return {'APPLIED', previous, unpack(counts())}
            """);

    private static final LuaScript REMOVE = LuaScript.of("room remove", COMMON + """
            -- ARGV: 1 room
            local previous = redis.call('HGET', KEYS[1], 'status')
            if previous then
              forget(ARGV[1], previous)
            end
            return counts()
            """);

    private static final LuaScript SET_METRIC = LuaScript.of("room metric", """
            -- KEYS: 1 room hash, 2 metric zset; ARGV: 1 room, 2 value
            local status = redis.call('HGET', KEYS[1], 'status')
            if status and status ~= 'terminating' then
              redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
              return 1
            end
            return 0
            """);

    private static final LuaScript REMOVE_SCHEDULER = LuaScript.of("scheduler remove", """
            -- KEYS: fixed keys of the scheduler, rooms:<status> sets last four; ARGV: 1 room-hash key prefix
            -- Room hashes share the scheduler's hash tag, so they live in the same slot as KEYS.
            for i = #KEYS - 3, #KEYS do
              for _, room in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
                redis.call('DEL', ARGV[1] .. room)
              end
            end
            return redis.call('DEL', unpack(KEYS))
            """);

    private final RedisAccess redis;
    private final RedisKeys keys;
    /**
     * Per validated scheduler: the update script's KEYS with slot 0 holding the room-hash key prefix (the
     * report puts its room's key there), so a report copies eleven references instead of building ten keys.
     * Bounded by the number of schedulers.
     */
    private final ConcurrentMap<String, String[]> schedulerKeys = new ConcurrentHashMap<>();

    /** A store with keys under {@value RedisKeys#DEFAULT_PREFIX}. */
    public RedisRoomStatusStore(StatefulConnection<String, String> connection) {
        this(connection, RedisKeys.defaults());
    }

    /** A store on {@code connection} (standalone, Sentinel, master/replica or Cluster) with keys laid out by {@code keys}. */
    public RedisRoomStatusStore(StatefulConnection<String, String> connection, RedisKeys keys) {
        this.redis = new RedisAccess(connection, STORE);
        this.keys = Objects.requireNonNull(keys, "keys");
    }

    @Override
    public RoomUpdate update(String scheduler, String room, RoomStatus status, Instant timestamp) {
        return redis.await("update room " + room, updateAsync(scheduler, room, status, timestamp));
    }

    /**
     * {@link #update} without waiting: callers that ingest many reports (a ping endpoint behind many
     * connections, a replay) issue several and let Lettuce pipeline them on the shared connection.
     * Validation happens before this returns; availability failures complete the future with
     * {@link dev.hotspare.spi.StoreUnavailableException}.
     */
    public CompletableFuture<RoomUpdate> updateAsync(String scheduler, String room, RoomStatus status, Instant timestamp) {
        String[] fixedKeys = fixedKeys(scheduler);
        Names.requireDns1123Label("room", room);
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(timestamp, "timestamp");
        long micros = micros(timestamp);
        String[] scriptKeys = fixedKeys.clone();
        scriptKeys[0] = fixedKeys[0] + room;
        return redis.<List<Object>>evalAsync(UPDATE, ScriptOutputType.MULTI, scriptKeys,
                        room, status.wireName(), Long.toString(timestamp.getEpochSecond()),
                        Integer.toString(timestamp.getNano()), Long.toString(micros))
                .handle((reply, failure) -> {
                    if (failure != null) {
                        throw redis.translate("update room " + room, failure);
                    }
                    Optional<RoomStatus> previous = Optional.ofNullable((String) reply.get(1)).map(RoomStatus::parse);
                    return new RoomUpdate(RoomProtocol.Outcome.valueOf((String) reply.get(0)), previous,
                            counts(reply.subList(2, 6)));
                });
    }

    @Override
    public RoomStatusCounts counts(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        List<KeyValue<String, String>> values = redis.await("counts of " + scheduler,
                redis.commands().hmget(keys.scheduler(scheduler) + "counts", "creating", "ready", "occupied", "terminating"));
        return counts(values.stream().map(v -> v.getValueOrElse(null)).toList());
    }

    @Override
    public Optional<RoomState> room(String scheduler, String room) {
        Names.requireDns1123Label("scheduler", scheduler);
        Names.requireDns1123Label("room", room);
        List<KeyValue<String, String>> fields = redis.await("read room " + room,
                redis.commands().hmget(roomKey(scheduler, room), "status", "s", "n", "os", "on"));
        if (!fields.get(0).hasValue()) {
            return Optional.empty();
        }
        Optional<Instant> occupiedSince = fields.get(3).hasValue()
                ? Optional.of(instant(fields.get(3).getValue(), fields.get(4).getValue()))
                : Optional.empty();
        return Optional.of(new RoomState(room, RoomStatus.parse(fields.get(0).getValue()),
                instant(fields.get(1).getValue(), fields.get(2).getValue()), occupiedSince));
    }

    @Override
    public List<String> rooms(String scheduler, RoomStatus status) {
        Names.requireDns1123Label("scheduler", scheduler);
        if (status == RoomStatus.TERMINATED) {
            return List.of();
        }
        return redis.await("list " + status + " rooms", redis.commands().zrange(statusKey(scheduler, status), 0, -1));
    }

    @Override
    public List<String> roomsWithPingBefore(String scheduler, Instant cutoff) {
        Names.requireDns1123Label("scheduler", scheduler);
        return redis.await("rooms with ping before " + cutoff, redis.commands().zrangebyscore(
                keys.scheduler(scheduler) + "pings", before(cutoff)));
    }

    @Override
    public List<String> roomsOccupiedBefore(String scheduler, Instant cutoff) {
        Names.requireDns1123Label("scheduler", scheduler);
        return redis.await("rooms occupied before " + cutoff, redis.commands().zrangebyscore(
                keys.scheduler(scheduler) + "occupied", before(cutoff)));
    }

    @Override
    public void setRoomMetric(String scheduler, String room, String metric, double value) {
        Names.requireDns1123Label("scheduler", scheduler);
        Names.requireDns1123Label("room", room);
        if (!"cpu".equals(metric) && !"mem".equals(metric)) {
            throw new ValidationException(Problem.of("metric", metric, "room usage is recorded for cpu or mem only"));
        }
        if (!Double.isFinite(value)) {
            throw new ValidationException(Problem.of("value", value, "room usage must be a finite number"));
        }
        redis.eval("record " + metric + " of room " + room, SET_METRIC, ScriptOutputType.INTEGER,
                new String[] {roomKey(scheduler, room), keys.scheduler(scheduler) + "metric:" + metric},
                room, Double.toString(value));
    }

    @Override
    public List<String> roomsOrderedByMetric(String scheduler, String metric, int limit) {
        Names.requireDns1123Label("scheduler", scheduler);
        if (!ORDERING_METRICS.contains(metric)) {
            throw new ValidationException(Problem.of("metric", metric, "unknown metric; known: cpu, legacy, mem, room"));
        }
        if (limit < 1) {
            throw new ValidationException(Problem.of("limit", limit, "must be at least 1"));
        }
        String key = metric.equals("room") || metric.equals("legacy")
                ? statusKey(scheduler, RoomStatus.READY)
                : keys.scheduler(scheduler) + "metric:" + metric;
        // Equal scores (all ready rooms score 0; equal usages) come back by name, which is the tie rule.
        return redis.await("rooms ordered by " + metric, redis.commands().zrangebyscore(key,
                Range.create(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY), Limit.create(0, limit)));
    }

    @Override
    public RoomStatusCounts remove(String scheduler, String room) {
        Names.requireDns1123Label("scheduler", scheduler);
        Names.requireDns1123Label("room", room);
        List<?> reply = redis.eval("remove room " + room, REMOVE, ScriptOutputType.MULTI, roomKeys(scheduler, room), room);
        return counts(reply);
    }

    @Override
    public void removeScheduler(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        String base = keys.scheduler(scheduler);
        String[] fixed = {base + "counts", base + "pings", base + "occupied", base + "stale", base + "metric:cpu",
                base + "metric:mem", statusKey(scheduler, RoomStatus.CREATING), statusKey(scheduler, RoomStatus.READY),
                statusKey(scheduler, RoomStatus.OCCUPIED), statusKey(scheduler, RoomStatus.TERMINATING)};
        redis.eval("remove scheduler " + scheduler, REMOVE_SCHEDULER, ScriptOutputType.INTEGER, fixed, base + "room:");
    }

    @Override
    public long staleReports(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        String value = redis.await("stale reports of " + scheduler, redis.commands().get(keys.scheduler(scheduler) + "stale"));
        return value == null ? 0 : Long.parseLong(value);
    }

    private String roomKey(String scheduler, String room) {
        return keys.scheduler(scheduler) + "room:" + room;
    }

    private String statusKey(String scheduler, RoomStatus status) {
        return keys.scheduler(scheduler) + "rooms:" + status.wireName();
    }

    /** The update script's scheduler keys (slot 0: room-hash prefix); validates {@code scheduler} on first sight. */
    private String[] fixedKeys(String scheduler) {
        String[] cached = scheduler == null ? null : schedulerKeys.get(scheduler);
        if (cached != null) {
            return cached;
        }
        Names.requireDns1123Label("scheduler", scheduler);
        String[] built = roomKeys(scheduler, "");
        schedulerKeys.putIfAbsent(scheduler, built);
        return built;
    }

    private String[] roomKeys(String scheduler, String room) {
        String base = keys.scheduler(scheduler);
        String[] all = new String[7 + INDEXED.size()];
        all[0] = roomKey(scheduler, room);
        all[1] = base + "counts";
        all[2] = base + "pings";
        all[3] = base + "occupied";
        all[4] = base + "stale";
        all[5] = base + "metric:cpu";
        all[6] = base + "metric:mem";
        for (int i = 0; i < INDEXED.size(); i++) {
            all[7 + i] = statusKey(scheduler, INDEXED.get(i));
        }
        return all;
    }

    private static RoomStatusCounts counts(List<?> values) {
        return new RoomStatusCounts(count(values.get(0)), count(values.get(1)), count(values.get(2)), count(values.get(3)));
    }

    private static int count(Object value) {
        return value == null ? 0 : Integer.parseInt(value.toString());
    }

    /** Scores strictly below {@code cutoff}'s microsecond. */
    private static Range<Long> before(Instant cutoff) {
        return Range.from(Range.Boundary.unbounded(), Range.Boundary.excluding(micros(cutoff)));
    }

    private static long micros(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }

    private static Instant instant(String seconds, String nanos) {
        return Instant.ofEpochSecond(Long.parseLong(seconds), Long.parseLong(nanos));
    }
}
