package dev.hotspare.redis;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.netty.channel.EventLoop;
import io.netty.util.internal.ThreadExecutorMap;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link RoomStatusStore} on Redis, through a connection the caller owns.
 *
 * <p>A report ({@link #update}, and so {@code ping}/{@code status}) is applied by one Lua script call, one
 * round trip: it applies {@link RoomProtocol} (stale reports counted, nothing leaves terminating, terminated
 * removes), moves the room between the per-status sorted sets, keeps the last-ping and occupied-since sorted
 * sets, adjusts the counts hash and returns the counts. Reports of one scheduler issued while others are on the
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
 * <p>Keys: see {@link RedisKeys}. Failures to reach Redis throw
 * {@link dev.hotspare.spi.StoreUnavailableException}. Thread-safe; callers on several threads share the
 * connection and Lettuce pipelines their commands. If Redis rejects a call (only possible with foreign values
 * under the store's keys), every report of that call fails with {@link IllegalStateException}, and the ones
 * before the offending report may have been applied.
 */
public final class RedisRoomStatusStore implements RoomStatusStore {

    private static final String STORE = "redis room status store";

    /** Index of each status's sorted set in the scripts' KEYS, after the fixed keys. */
    private static final List<RoomStatus> INDEXED = List.of(RoomStatus.CREATING, RoomStatus.READY, RoomStatus.OCCUPIED, RoomStatus.TERMINATING);

    /** Outcomes by their code in the update script's reply. */
    private static final RoomProtocol.Outcome[] OUTCOMES = {RoomProtocol.Outcome.APPLIED, RoomProtocol.Outcome.STALE, RoomProtocol.Outcome.REJECTED};

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

    // One call applies a batch of reports in order, exactly as if each were its own script call run back to
    // back. KEYS: 1 counts, 2 pings, 3 occupied, 4 stale, 5 cpu, 6 mem, 7..10 rooms:<status> for creating,
    // ready, occupied, terminating, then one room hash per report. ARGV: five per report, in the order of the
    // room hashes: room, status, epoch seconds, nanos, epoch micros (score). Room keys and member names are
    // arguments, never built in Lua.
    // The counts are read once and kept in Lua while the batch runs; the counts hash is written once at the end
    // (the script is atomic, so nobody sees the counts hash and the status sets disagree).
    // Reply, flat and all integers (cheap to build and to decode): the four counts before the batch, then one
    // code per report, outcome * 8 + previous status (0 none, 1..4 creating, ready, occupied, terminating). The
    // client replays the count changes, which follow from outcome, previous and new status alone.
    private static final LuaScript UPDATE = LuaScript.of("room update", """
            local statusIndex = {creating = 7, ready = 8, occupied = 9, terminating = 10}
            local statusCode = {creating = 1, ready = 2, occupied = 3, terminating = 4}
            local outcomeCode = {APPLIED = 0, STALE = 8, REJECTED = 16}
            local stored = redis.call('HMGET', KEYS[1], 'creating', 'ready', 'occupied', 'terminating')
            local reply = {tonumber(stored[1]) or 0, tonumber(stored[2]) or 0, tonumber(stored[3]) or 0, tonumber(stored[4]) or 0}
            local delta = {creating = 0, ready = 0, occupied = 0, terminating = 0}
            for i = 11, #KEYS do
              local roomKey, a = KEYS[i], (i - 11) * 5
              local room, status = ARGV[a + 1], ARGV[a + 2]
              local current = redis.call('HMGET', roomKey, 'status', 's', 'n')
              local previous = current[1]
              local outcome = 'APPLIED'
              if previous then
                local seconds, nanos = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
                local lastSeconds, lastNanos = tonumber(current[2]), tonumber(current[3])
                if seconds < lastSeconds or (seconds == lastSeconds and nanos < lastNanos) then
                  redis.call('INCR', KEYS[4])
                  outcome = 'STALE'
                elseif previous == 'terminating' and status ~= 'terminating' and status ~= 'terminated' then
                  outcome = 'REJECTED'
                end
              end
              if outcome ~= 'APPLIED' then
                -- nothing changes
              elseif status == 'terminated' then
                if previous then
                  redis.call('DEL', roomKey)
                  redis.call('ZREM', KEYS[statusIndex[previous]], room)
                  delta[previous] = delta[previous] - 1
                  redis.call('ZREM', KEYS[2], room)
                  redis.call('ZREM', KEYS[3], room)
                  redis.call('ZREM', KEYS[5], room)
                  redis.call('ZREM', KEYS[6], room)
                end
              elseif previous == status then
                -- A keep-alive: only the last ping moves.
                redis.call('HSET', roomKey, 's', ARGV[a + 3], 'n', ARGV[a + 4])
                if status ~= 'terminating' then
                  redis.call('ZADD', KEYS[2], ARGV[a + 5], room)
                end
              else
                if previous then
                  redis.call('ZREM', KEYS[statusIndex[previous]], room)
                  delta[previous] = delta[previous] - 1
                end
                redis.call('ZADD', KEYS[statusIndex[status]], 0, room)
                delta[status] = delta[status] + 1
                if status == 'occupied' then
                  redis.call('HSET', roomKey, 'status', status, 's', ARGV[a + 3], 'n', ARGV[a + 4], 'os', ARGV[a + 3], 'on', ARGV[a + 4])
                  redis.call('ZADD', KEYS[3], ARGV[a + 5], room)
                else
                  redis.call('HSET', roomKey, 'status', status, 's', ARGV[a + 3], 'n', ARGV[a + 4])
                  if previous == 'occupied' then
                    redis.call('HDEL', roomKey, 'os', 'on')
                    redis.call('ZREM', KEYS[3], room)
                  end
                end
                if status == 'terminating' then
                  -- Terminating rooms are never dead-by-ping nor offered by usage.
                  redis.call('ZREM', KEYS[2], room)
                  redis.call('ZREM', KEYS[5], room)
                  redis.call('ZREM', KEYS[6], room)
                else
                  redis.call('ZADD', KEYS[2], ARGV[a + 5], room)
                end
              end
              reply[i - 6] = outcomeCode[outcome] + (previous and statusCode[previous] or 0)
            end
            for status, change in pairs(delta) do
              if change ~= 0 then
                redis.call('HINCRBY', KEYS[1], status, change)
              end
            end
            return reply
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

    /** Most reports sent in one script call. */
    static final int MAX_BATCH = 64;
    /** Script calls of one scheduler on the wire at once; reports beyond that wait and leave together. */
    static final int MAX_IN_FLIGHT = 2;

    private final RedisAccess redis;
    private final RedisKeys keys;
    /** Per validated scheduler, its batcher. Bounded by the number of schedulers. */
    private final ConcurrentMap<String, Batcher> batchers = new ConcurrentHashMap<>();

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
     * connections, a replay) issue several and the store sends them together. Reports of one scheduler leave in
     * the order they were issued: straight away while fewer than {@value #MAX_IN_FLIGHT} script calls of that
     * scheduler are on the wire, otherwise together (up to {@value #MAX_BATCH} per call) as soon as one returns.
     * A call applies its reports in order, each exactly as its own {@link #update} would. Any other operation of
     * the store on the scheduler first sends the reports still waiting, so it is applied after them.
     * Validation happens before this returns; availability failures complete the future with
     * {@link dev.hotspare.spi.StoreUnavailableException}.
     */
    public CompletableFuture<RoomUpdate> updateAsync(String scheduler, String room, RoomStatus status, Instant timestamp) {
        Batcher batcher = batcher(scheduler);
        Names.requireDns1123Label("room", room);
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(timestamp, "timestamp");
        Report report = new Report(room, status, timestamp);
        batcher.submit(report);
        return report.result;
    }

    @Override
    public RoomStatusCounts counts(String scheduler) {
        settled(scheduler);
        List<KeyValue<String, String>> values = redis.await("counts of " + scheduler,
                redis.commands().hmget(keys.scheduler(scheduler) + "counts", "creating", "ready", "occupied", "terminating"));
        return counts(values.stream().map(v -> v.getValueOrElse(null)).toList());
    }

    @Override
    public Optional<RoomState> room(String scheduler, String room) {
        settled(scheduler);
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
        settled(scheduler);
        if (status == RoomStatus.TERMINATED) {
            return List.of();
        }
        return redis.await("list " + status + " rooms", redis.commands().zrange(statusKey(scheduler, status), 0, -1));
    }

    @Override
    public List<String> roomsWithPingBefore(String scheduler, Instant cutoff) {
        settled(scheduler);
        return redis.await("rooms with ping before " + cutoff, redis.commands().zrangebyscore(
                keys.scheduler(scheduler) + "pings", before(cutoff)));
    }

    @Override
    public List<String> roomsOccupiedBefore(String scheduler, Instant cutoff) {
        settled(scheduler);
        return redis.await("rooms occupied before " + cutoff, redis.commands().zrangebyscore(
                keys.scheduler(scheduler) + "occupied", before(cutoff)));
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
        redis.eval("record " + metric + " of room " + room, SET_METRIC, ScriptOutputType.INTEGER,
                new String[] {roomKey(scheduler, room), keys.scheduler(scheduler) + "metric:" + metric},
                room, Double.toString(value));
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
                ? statusKey(scheduler, RoomStatus.READY)
                : keys.scheduler(scheduler) + "metric:" + metric;
        // Equal scores (all ready rooms score 0; equal usages) come back by name, which is the tie rule.
        return redis.await("rooms ordered by " + metric, redis.commands().zrangebyscore(key,
                Range.create(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY), Limit.create(0, limit)));
    }

    @Override
    public RoomStatusCounts remove(String scheduler, String room) {
        settled(scheduler);
        Names.requireDns1123Label("room", room);
        List<?> reply = redis.eval("remove room " + room, REMOVE, ScriptOutputType.MULTI, roomKeys(scheduler, room), room);
        return counts(reply);
    }

    @Override
    public void removeScheduler(String scheduler) {
        settled(scheduler);
        redis.eval("remove scheduler " + scheduler, REMOVE_SCHEDULER, ScriptOutputType.INTEGER, schedulerKeys(scheduler),
                keys.scheduler(scheduler) + "room:");
    }

    @Override
    public long staleReports(String scheduler) {
        settled(scheduler);
        String value = redis.await("stale reports of " + scheduler, redis.commands().get(keys.scheduler(scheduler) + "stale"));
        return value == null ? 0 : Long.parseLong(value);
    }

    /**
     * Validates {@code scheduler} and sends its reports still waiting, so the command the caller issues next is
     * applied after them (every operation but a report starts here).
     */
    private void settled(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        Batcher batcher = batchers.get(scheduler);
        if (batcher != null) {
            batcher.flush();
        }
    }

    private String roomKey(String scheduler, String room) {
        return keys.scheduler(scheduler) + "room:" + room;
    }

    private String statusKey(String scheduler, RoomStatus status) {
        return keys.scheduler(scheduler) + "rooms:" + status.wireName();
    }

    /** Whether the calling thread is a Netty event loop (a Lettuce I/O thread), where writes happen inline. */
    private static boolean onIoThread() {
        return ThreadExecutorMap.currentExecutor() instanceof EventLoop;
    }

    /** The batcher of {@code scheduler}, validating the name on first sight. */
    private Batcher batcher(String scheduler) {
        Batcher cached = scheduler == null ? null : batchers.get(scheduler);
        if (cached != null) {
            return cached;
        }
        Names.requireDns1123Label("scheduler", scheduler);
        return batchers.computeIfAbsent(scheduler, Batcher::new);
    }

    /** One report waiting for its reply, with its script arguments already encoded (on the caller's thread). */
    private static final class Report {
        final String room;
        final RoomStatus status;
        final String seconds;
        final String nanos;
        final String micros;
        final CompletableFuture<RoomUpdate> result = new CompletableFuture<>();

        Report(String room, RoomStatus status, Instant timestamp) {
            this.room = room;
            this.status = status;
            this.seconds = Long.toString(timestamp.getEpochSecond());
            this.nanos = Integer.toString(timestamp.getNano());
            this.micros = Long.toString(micros(timestamp));
        }
    }

    /**
     * The reports of one scheduler on their way to Redis. Reports wait in a FIFO queue and leave only while
     * holding {@link #sending}, in queue order, so they reach the connection in the order they were submitted
     * (and Lettuce keeps that order on the wire). Nobody waits for the lock on the report path: a thread that
     * finds it taken leaves its report to the holder, who looks again after unlocking.
     */
    private final class Batcher {
        private final String roomKeyPrefix;
        private final String[] schedulerKeys;
        private final Queue<Report> waiting = new ConcurrentLinkedQueue<>();
        private final ReentrantLock sending = new ReentrantLock();
        private final AtomicInteger inFlight = new AtomicInteger();

        Batcher(String scheduler) {
            this.roomKeyPrefix = keys.scheduler(scheduler) + "room:";
            this.schedulerKeys = RedisRoomStatusStore.this.schedulerKeys(scheduler);
        }

        void submit(Report report) {
            if (onIoThread()) {
                // A caller on a Lettuce I/O thread writes inline, ahead of writes other threads have queued for
                // that thread; sending its report straight away keeps at least its own commands in order.
                send(new Report[] {report});
                return;
            }
            waiting.add(report);
            pump();
        }

        /** Sends every waiting report now, whatever is in flight; returns once they are on the connection. */
        void flush() {
            sending.lock();
            try {
                while (!waiting.isEmpty()) {
                    sendWaiting();
                }
            } finally {
                sending.unlock();
            }
            // A report submitted while this held the lock left itself to the holder (its tryLock failed); look
            // again, or with nothing in flight no completion would ever send it.
            pump();
        }

        /** Sends waiting reports while fewer than {@value #MAX_IN_FLIGHT} calls are in flight. */
        private void pump() {
            while (!waiting.isEmpty() && inFlight.get() < MAX_IN_FLIGHT) {
                if (!sending.tryLock()) {
                    return; // the holder looks again after unlocking
                }
                try {
                    while (!waiting.isEmpty() && inFlight.get() < MAX_IN_FLIGHT) {
                        sendWaiting();
                    }
                } finally {
                    sending.unlock();
                }
            }
        }

        /** Sends up to {@value #MAX_BATCH} waiting reports as one script call; called holding the lock. */
        private void sendWaiting() {
            // Only the lock holder removes reports, so at least this many are there.
            int size = Math.min(waiting.size(), MAX_BATCH);
            if (size == 0) {
                return;
            }
            Report[] batch = new Report[size];
            for (int i = 0; i < size; i++) {
                batch[i] = waiting.poll();
            }
            send(batch);
        }

        /** Sends {@code batch} as one script call. */
        private void send(Report[] batch) {
            int size = batch.length;
            String[] scriptKeys = Arrays.copyOf(schedulerKeys, schedulerKeys.length + size);
            String[] args = new String[size * 5];
            for (int i = 0; i < size; i++) {
                Report report = batch[i];
                scriptKeys[schedulerKeys.length + i] = roomKeyPrefix + report.room;
                args[i * 5] = report.room;
                args[i * 5 + 1] = report.status.wireName();
                args[i * 5 + 2] = report.seconds;
                args[i * 5 + 3] = report.nanos;
                args[i * 5 + 4] = report.micros;
            }
            inFlight.incrementAndGet();
            redis.<List<Object>>evalAsync(UPDATE, ScriptOutputType.MULTI, scriptKeys, args)
                    .whenComplete((reply, failure) -> {
                        inFlight.decrementAndGet();
                        try {
                            complete(batch, reply, failure);
                        } catch (RuntimeException unexpected) {
                            // A reply of the wrong shape: fail whatever it did not complete rather than hang.
                            for (Report report : batch) {
                                report.result.completeExceptionally(unexpected);
                            }
                        }
                        if (!waiting.isEmpty()) {
                            resumeSending();
                        }
                    });
        }

        /**
         * Sends what waits, but not from here: this is usually the connection's I/O thread, whose writes would
         * overtake batches that caller threads have queued for it.
         */
        private void resumeSending() {
            try {
                redis.executor().execute(this::pump);
            } catch (RejectedExecutionException shuttingDown) {
                // The client is shutting down; sending now (and failing fast) beats leaving reports waiting.
                pump();
            }
        }

        private void complete(Report[] batch, List<Object> reply, Throwable failure) {
            if (failure != null) {
                for (Report report : batch) {
                    report.result.completeExceptionally(redis.translate("update room " + report.room, failure));
                }
                return;
            }
            int[] counts = new int[INDEXED.size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = ((Long) reply.get(i)).intValue();
            }
            for (int i = 0; i < batch.length; i++) {
                Report report = batch[i];
                int code = ((Long) reply.get(counts.length + i)).intValue();
                RoomProtocol.Outcome outcome = OUTCOMES[code / 8];
                int previous = code % 8 - 1;
                if (outcome == RoomProtocol.Outcome.APPLIED) {
                    int next = INDEXED.indexOf(report.status);
                    if (previous != next) {
                        if (previous >= 0) {
                            counts[previous]--;
                        }
                        if (next >= 0) {
                            counts[next]++;
                        }
                    }
                }
                report.result.complete(new RoomUpdate(outcome,
                        previous < 0 ? Optional.empty() : Optional.of(INDEXED.get(previous)),
                        new RoomStatusCounts(counts[0], counts[1], counts[2], counts[3])));
            }
        }
    }

    /** The scripts' KEYS of {@code room}: its hash, then {@link #schedulerKeys}. */
    private String[] roomKeys(String scheduler, String room) {
        String[] scheduled = schedulerKeys(scheduler);
        String[] all = new String[1 + scheduled.length];
        all[0] = roomKey(scheduler, room);
        System.arraycopy(scheduled, 0, all, 1, scheduled.length);
        return all;
    }

    /** The scheduler's keys in the scripts' order: counts, pings, occupied, stale, cpu, mem, then the status sets. */
    private String[] schedulerKeys(String scheduler) {
        String base = keys.scheduler(scheduler);
        String[] all = new String[6 + INDEXED.size()];
        all[0] = base + "counts";
        all[1] = base + "pings";
        all[2] = base + "occupied";
        all[3] = base + "stale";
        all[4] = base + "metric:cpu";
        all[5] = base + "metric:mem";
        for (int i = 0; i < INDEXED.size(); i++) {
            all[6 + i] = statusKey(scheduler, INDEXED.get(i));
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
