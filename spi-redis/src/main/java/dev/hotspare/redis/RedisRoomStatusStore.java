package dev.hotspare.redis;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomProtocol.DeadRoomRules;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.fleet.spi.RoomStatusStore.RoomObservation;
import dev.hotspare.redis.internal.KeyLayout;
import dev.hotspare.redis.internal.RedisAccess;
import dev.hotspare.redis.internal.RoomReportBatcher;
import dev.hotspare.redis.internal.Scripts;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@link RoomStatusStore} on Redis, through a connection the caller owns.
 *
 * <p>A report ({@link #update}, and so {@code ping}/{@code status}) is applied by one Lua script call, one
 * round trip: it applies {@link RoomProtocol} (stale reports counted, nothing leaves terminating, terminated
 * removes, allocated slots turn into running matches), moves the room between the per-status sorted sets, keeps
 * the last-ping, occupied-since, slots and allocations sorted sets, adjusts the counts hash and returns the counts.
 * {@link #allocate} is one script call too: it takes the first room of the slots set with a free slot (most used
 * first) and gives it one more allocated slot, atomically, so concurrent allocators never share a slot. Reports of one scheduler issued while others are on the
 * wire share a call (see {@link #updateAsync}); a call applies its reports one after the other, each with the
 * outcome and counts it would have had alone. {@link #counts} is one {@code HMGET}; the dead-room queries are
 * {@code ZRANGEBYSCORE} on the ping and occupied-since sets; {@link #roomsOrderedByMetric} is one
 * {@code ZRANGE} with a limit. {@link #remove} and terminated delete every key and member of the room.
 *
 * <p>Timestamps are stored exactly (epoch seconds and nanos) for the protocol's staleness check; the sorted
 * sets score them in epoch microseconds, so the dead-room cut-offs compare at microsecond precision.
 * A usage recorded with {@link #setRoomMetric} for a room the store does not know, or a terminating one, is
 * dropped (storing it would leak a key for a room that may never report).
 *
 * <p>This class checks names and arguments and hands the work on: the scripts live in the jar as resources
 * ({@code dev/hotspare/redis/lua}) and share one KEYS layout, and a per-scheduler batcher groups the reports.
 *
 * <p>Keys: see {@link RedisKeys}. Failures to reach Redis throw
 * {@link dev.hotspare.spi.StoreUnavailableException}. Thread-safe; callers on several threads share the
 * connection and Lettuce pipelines their commands. If Redis rejects a call (only possible with foreign values
 * under the store's keys), every report of that call fails with {@link IllegalStateException}, and the ones
 * before the offending report may have been applied.
 */
public final class RedisRoomStatusStore implements RoomStatusStore {

    private static final String STORE = "redis room status store";

    private final RedisAccess redis;
    private final KeyLayout keys;
    /** Per validated scheduler, its batcher. Bounded by the number of schedulers. */
    private final ConcurrentMap<String, RoomReportBatcher> batchers = new ConcurrentHashMap<>();

    /**
     * A store with keys under {@value RedisKeys#DEFAULT_PREFIX}.
     */
    public RedisRoomStatusStore(StatefulConnection<String, String> connection) {
        this(connection, RedisKeys.defaults());
    }

    /**
     * A store on {@code connection} (standalone, Sentinel, master/replica or Cluster) with keys laid out by {@code keys}.
     */
    public RedisRoomStatusStore(StatefulConnection<String, String> connection, RedisKeys keys) {
        this.redis = new RedisAccess(connection, STORE);
        this.keys = Objects.requireNonNull(keys, "keys").layout();
    }

    @Override
    public RoomUpdate update(String scheduler, String room, RoomStatus status, Instant timestamp, int runningMatches) {
        return redis.await("update room " + room, updateAsync(scheduler, room, status, timestamp, runningMatches));
    }

    /**
     * {@link #updateAsync(String, String, RoomStatus, Instant, int)} for a room that does not report its matches.
     *
     * @param status    the reported status
     * @param timestamp the report's time
     * @return the reply to come
     */
    public CompletableFuture<RoomUpdate> updateAsync(String scheduler, String room, RoomStatus status, Instant timestamp) {
        return updateAsync(scheduler, room, status, timestamp, RoomProtocol.defaultRunningMatches(status));
    }

    /**
     * {@link #update} without waiting: callers that ingest many reports (a ping endpoint behind many
     * connections, a replay) issue several and the store sends them together. Reports of one scheduler leave in
     * the order they were issued: straight away while fewer than {@value RoomReportBatcher#MAX_IN_FLIGHT} script calls of that
     * scheduler are on the wire, otherwise together (up to {@value RoomReportBatcher#MAX_BATCH} per call) as soon as one returns.
     * A call applies its reports in order, each exactly as its own {@link #update} would. Any other operation of
     * the store on the scheduler first sends the reports still waiting, so it is applied after them.
     * Validation happens before this returns; availability failures complete the future with
     * {@link dev.hotspare.spi.StoreUnavailableException}.
     *
     * @param status         the reported status
     * @param timestamp      the report's time
     * @param runningMatches the matches the room runs
     * @return the reply to come
     */
    public CompletableFuture<RoomUpdate> updateAsync(String scheduler, String room, RoomStatus status, Instant timestamp,
                                                     int runningMatches) {
        RoomReportBatcher batcher = batcher(scheduler);
        Names.requireDns1123Label("room", room);
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(timestamp, "timestamp");
        RoomProtocol.requireRunningMatches(runningMatches);
        return batcher.submit(room, status, timestamp, runningMatches);
    }

    @Override
    public RoomStatusCounts counts(String scheduler) {
        settled(scheduler);
        List<KeyValue<String, String>> values = redis.await("counts of " + scheduler,
                redis.commands().hmget(keys.counts(scheduler), KeyLayout.COUNT_FIELDS.toArray(String[]::new)));
        return counts(values.stream().map(v -> v.getValueOrElse(null)).toList());
    }

    @Override
    public RoomObservation observe(String scheduler, DeadRoomRules rules, Instant now) {
        settled(scheduler);
        // Every read is sent before any answer is awaited: Lettuce pipelines them, so a tick observes a scheduler's
        // rooms in one round trip. All keys carry the scheduler's hash tag, so on Redis Cluster they share a slot.
        Map<RoomStatus, CompletionStage<List<String>>> byStatus = new LinkedHashMap<>();
        for (RoomStatus status : RoomObservation.OBSERVED) {
            byStatus.put(status, redis.commands().zrange(keys.statusSet(scheduler, status), 0, -1));
        }
        CompletionStage<List<KeyValue<String, String>>> counted = redis.commands().hmget(keys.counts(scheduler),
                KeyLayout.COUNT_FIELDS.toArray(String[]::new));
        CompletionStage<List<String>> silent = redis.commands().zrangebyscore(keys.pings(scheduler), atOrBefore(rules.pingCutoff(now)));
        Optional<CompletionStage<List<String>>> occupied = rules.occupiedCutoff(now)
                .map(cutoff -> redis.commands().zrangebyscore(keys.occupied(scheduler), atOrBefore(cutoff)));
        Map<String, RoomStatus> statuses = new LinkedHashMap<>();
        byStatus.forEach((status, rooms) -> redis.await("list " + status + " rooms", rooms).forEach(room -> statuses.put(room, status)));
        RoomStatusCounts counts = counts(redis.await("counts of " + scheduler, counted).stream().map(v -> v.getValueOrElse(null)).toList());
        Set<String> dead = new LinkedHashSet<>(redis.await("rooms with ping at or before", silent));
        occupied.ifPresent(rooms -> dead.addAll(redis.await("rooms occupied at or before", rooms)));
        // Rooms in error are removed as dead rooms are (Maestro 10), as the default deadRooms says.
        statuses.forEach((room, status) -> {
            if (status == RoomStatus.ERROR) {
                dead.add(room);
            }
        });
        return new RoomObservation(statuses, counts, List.copyOf(dead));
    }

    @Override
    public Optional<RoomState> room(String scheduler, String room) {
        settled(scheduler);
        Names.requireDns1123Label("room", room);
        List<KeyValue<String, String>> fields = redis.await("read room " + room,
                redis.commands().hmget(keys.roomHash(scheduler, room), "status", "s", "n", "os", "on", "m", "a", "as", "an"));
        if (!fields.get(0).hasValue()) {
            return Optional.empty();
        }
        Optional<Instant> occupiedSince = fields.get(3).hasValue()
                ? Optional.of(instant(fields.get(3).getValue(), fields.get(4).getValue()))
                : Optional.empty();
        int allocated = count(fields.get(6).getValueOrElse(null));
        Optional<Instant> allocatedAt = allocated > 0 && fields.get(7).hasValue()
                ? Optional.of(instant(fields.get(7).getValue(), fields.get(8).getValue()))
                : Optional.empty();
        return Optional.of(new RoomState(room, RoomStatus.parse(fields.get(0).getValue()),
                instant(fields.get(1).getValue(), fields.get(2).getValue()), occupiedSince,
                count(fields.get(5).getValueOrElse(null)), allocated, allocatedAt));
    }

    @Override
    public List<String> rooms(String scheduler, RoomStatus status) {
        settled(scheduler);
        if (status == RoomStatus.TERMINATED) {
            return List.of();
        }
        return redis.await("list " + status + " rooms", redis.commands().zrange(keys.statusSet(scheduler, status), 0, -1));
    }

    @Override
    public List<String> roomsWithPingAtOrBefore(String scheduler, Instant cutoff) {
        settled(scheduler);
        return redis.await("rooms with ping at or before " + cutoff, redis.commands().zrangebyscore(
                keys.pings(scheduler), atOrBefore(cutoff)));
    }

    @Override
    public List<String> roomsOccupiedAtOrBefore(String scheduler, Instant cutoff) {
        settled(scheduler);
        return redis.await("rooms occupied at or before " + cutoff, redis.commands().zrangebyscore(
                keys.occupied(scheduler), atOrBefore(cutoff)));
    }

    @Override
    public void setRoomMetric(String scheduler, String room, String metric, double value) {
        settled(scheduler);
        Names.requireDns1123Label("room", room);
        if (!"cpu".equals(metric) && !"mem".equals(metric)) {
            throw new ValidationException(Problem.of("metric", metric, "room usage is recorded for cpu or mem only"));
        }
        if (!Double.isFinite(value)) {
            throw new ValidationException(Problem.of("value", value, "room usage must be a finite number"));
        }
        redis.eval("record " + metric + " of room " + room, Scripts.ROOM_METRIC, ScriptOutputType.INTEGER,
                roomKeys(scheduler, room), room, metric, Double.toString(value));
    }

    @Override
    public List<String> roomsOrderedByMetric(String scheduler, String metric, int limit) {
        settled(scheduler);
        if (!ORDERING_METRICS.contains(metric)) {
            throw new ValidationException(Problem.of("metric", metric, "unknown metric; known: cpu, legacy, mem, room"));
        }
        if (limit < 1) {
            throw new ValidationException(Problem.of("limit", limit, "must be at least 1"));
        }
        String key = metric.equals("room") || metric.equals("legacy")
                ? keys.statusSet(scheduler, RoomStatus.READY)
                : keys.roomMetric(scheduler, metric);
        // Equal scores (all ready rooms score 0; equal usages) come back by name, which is the tie rule.
        return redis.await("rooms ordered by " + metric, redis.commands().zrangebyscore(key,
                Range.create(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY), Limit.create(0, limit)));
    }

    @Override
    public List<String> roomsWithFreeSlots(String scheduler, int maxMatchesPerRoom, int limit) {
        settled(scheduler);
        requireSlots(maxMatchesPerRoom);
        if (limit < 1) {
            throw new ValidationException(Problem.of("limit", limit, "must be at least 1"));
        }
        // Scores are -(slots in use): a free slot means a score above -maxMatchesPerRoom; ties come back by name.
        return redis.await("rooms with free slots", redis.commands().zrangebyscore(keys.slots(scheduler),
                Range.from(Range.Boundary.excluding((double) -maxMatchesPerRoom), Range.Boundary.unbounded()),
                Limit.create(0, limit)));
    }

    @Override
    public Optional<String> allocate(String scheduler, int maxMatchesPerRoom, Instant now) {
        settled(scheduler);
        requireSlots(maxMatchesPerRoom);
        Objects.requireNonNull(now, "now");
        String room = redis.eval("allocate a slot of " + scheduler, Scripts.ROOM_ALLOCATE, ScriptOutputType.VALUE,
                keys.roomScriptKeys(scheduler), keys.roomHashPrefix(scheduler), Integer.toString(maxMatchesPerRoom),
                Long.toString(now.getEpochSecond()), Integer.toString(now.getNano()), Long.toString(KeyLayout.timeScore(now)));
        return Optional.ofNullable(room);
    }

    @Override
    public List<String> expireAllocations(String scheduler, Instant cutoff) {
        settled(scheduler);
        Objects.requireNonNull(cutoff, "cutoff");
        List<String> expired = redis.eval("expire allocations of " + scheduler, Scripts.ROOM_EXPIRE, ScriptOutputType.MULTI,
                keys.roomScriptKeys(scheduler), keys.roomHashPrefix(scheduler), Long.toString(KeyLayout.timeScore(cutoff)));
        return List.copyOf(expired);
    }

    private static void requireSlots(int maxMatchesPerRoom) {
        if (maxMatchesPerRoom < 1) {
            throw new ValidationException(Problem.of("maxMatchesPerRoom", maxMatchesPerRoom, "must be at least 1"));
        }
    }

    @Override
    public RoomStatusCounts remove(String scheduler, String room) {
        settled(scheduler);
        Names.requireDns1123Label("room", room);
        List<?> reply = redis.eval("remove room " + room, Scripts.ROOM_REMOVE, ScriptOutputType.MULTI, roomKeys(scheduler, room), room);
        return counts(reply);
    }

    @Override
    public void removeScheduler(String scheduler) {
        settled(scheduler);
        redis.eval("remove scheduler " + scheduler, Scripts.SCHEDULER_REMOVE, ScriptOutputType.INTEGER,
                keys.roomScriptKeys(scheduler), keys.roomHashPrefix(scheduler));
    }

    @Override
    public long staleReports(String scheduler) {
        settled(scheduler);
        String value = redis.await("stale reports of " + scheduler, redis.commands().get(keys.stale(scheduler)));
        return value == null ? 0 : Long.parseLong(value);
    }

    /**
     * Validates {@code scheduler} and sends its reports still waiting, so the command the caller issues next is
     * applied after them (every operation but a report starts here).
     */
    private void settled(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        RoomReportBatcher batcher = batchers.get(scheduler);
        if (batcher != null) {
            batcher.flush();
        }
    }

    /** The batcher of {@code scheduler}, validating the name on first sight. */
    private RoomReportBatcher batcher(String scheduler) {
        RoomReportBatcher cached = scheduler == null ? null : batchers.get(scheduler);
        if (cached != null) {
            return cached;
        }
        Names.requireDns1123Label("scheduler", scheduler);
        return batchers.computeIfAbsent(scheduler, s -> new RoomReportBatcher(redis, keys, s));
    }

    /** The KEYS of a script call about one room: the scheduler's keys, then the room's hash. */
    private String[] roomKeys(String scheduler, String room) {
        return KeyLayout.withRooms(keys.roomScriptKeys(scheduler), keys.roomHash(scheduler, room));
    }

    private static RoomStatusCounts counts(List<?> values) {
        int[] counts = new int[KeyLayout.COUNT_FIELDS.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = count(values.get(i));
        }
        return RoomReportBatcher.counts(counts);
    }

    private static int count(Object value) {
        return value == null ? 0 : Integer.parseInt(value.toString());
    }

    /** Scores at or below {@code cutoff}'s microsecond. */
    private static Range<Long> atOrBefore(Instant cutoff) {
        return Range.from(Range.Boundary.unbounded(), Range.Boundary.including(KeyLayout.timeScore(cutoff)));
    }

    private static Instant instant(String seconds, String nanos) {
        return Instant.ofEpochSecond(Long.parseLong(seconds), Long.parseLong(nanos));
    }
}
