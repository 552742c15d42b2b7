package dev.hotspare.redis.internal;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.spi.RoomStatusStore.RoomUpdate;
import io.lettuce.core.ScriptOutputType;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The room reports of one scheduler on their way to Redis: reports issued while others are on the wire share one
 * {@link Scripts#ROOM_UPDATE} call, in issue order, and each gets exactly the outcome, previous status and counts
 * it would get as a call of its own.
 *
 * <p>A report leaves straight away while fewer than {@value #MAX_IN_FLIGHT} calls of the scheduler are on the
 * wire; otherwise it waits, and the waiting reports leave together (up to {@value #MAX_BATCH} per call) as soon as
 * a call returns. Reports wait in a FIFO queue and leave only while holding {@link #sending}, in queue order, so
 * they reach the connection in the order they were submitted (and Lettuce keeps that order on the wire). Nobody
 * waits for the lock on the report path: a thread that finds it taken leaves its report to the holder, who looks
 * again after unlocking.
 *
 * <p>If Redis rejects a call (only possible with foreign values under the store's keys), every report of that
 * call fails with {@link IllegalStateException}, and the ones before the offending report may have been applied;
 * a reply of the wrong shape fails the reports it did not complete. Availability failures complete the reports
 * with {@link dev.hotspare.spi.StoreUnavailableException}. Thread-safe.
 */
public final class RoomReportBatcher {

    /** Most reports sent in one script call. */
    public static final int MAX_BATCH = 64;
    /** Script calls of one scheduler on the wire at once; reports beyond that wait and leave together. */
    public static final int MAX_IN_FLIGHT = 2;

    /** Outcomes by their code in the update script's reply (code / 8). */
    private static final RoomProtocol.Outcome[] OUTCOMES = {RoomProtocol.Outcome.APPLIED, RoomProtocol.Outcome.STALE, RoomProtocol.Outcome.REJECTED};
    /** Script arguments per report. */
    private static final int ARGS = 6;
    /** Reply values per report: outcome and previous status, status after, matches change, slots change. */
    private static final int REPLY = 4;

    private final RedisAccess redis;
    private final String roomHashPrefix;
    private final String[] schedulerKeys;
    private final Queue<Report> waiting = new ConcurrentLinkedQueue<>();
    private final ReentrantLock sending = new ReentrantLock();
    private final AtomicInteger inFlight = new AtomicInteger();

    /**
     * The batcher of one scheduler, whose name the caller validated.
     *
     * @param redis     the store's access to Redis
     * @param layout    the store's key layout
     * @param scheduler the scheduler, already validated
     */
    public RoomReportBatcher(RedisAccess redis, KeyLayout layout, String scheduler) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.roomHashPrefix = layout.roomHashPrefix(scheduler);
        this.schedulerKeys = layout.roomScriptKeys(scheduler);
    }

    /**
     * Sends a report of {@code room} (already validated) and returns its reply to come. Its arguments are encoded
     * here, on the caller's thread, so a timestamp that cannot be encoded fails this call and not the batch.
     *
     * @param room           the room, validated
     * @param status         the reported status
     * @param timestamp      the report's time
     * @param runningMatches the matches the room runs, validated
     * @throws ArithmeticException if the timestamp is too far from the epoch to score
     */
    public CompletableFuture<RoomUpdate> submit(String room, RoomStatus status, Instant timestamp, int runningMatches) {
        Report report = new Report(room, status, timestamp, runningMatches);
        if (IoThreads.current()) {
            // A caller on a Lettuce I/O thread writes inline, ahead of writes other threads have queued for that
            // thread; sending its report straight away keeps at least its own commands in order.
            send(new Report[] {report});
            return report.result;
        }
        waiting.add(report);
        pump();
        return report.result;
    }

    /**
     * Sends every waiting report now, whatever is in flight; returns once they are on the connection. The store
     * calls it before any other operation on the scheduler, so that operation is applied after the reports.
     */
    public void flush() {
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
        // KEYS: the scheduler's keys, then one room hash per report (room-keys.lua).
        String[] keys = Arrays.copyOf(schedulerKeys, schedulerKeys.length + size);
        String[] args = new String[size * ARGS];
        for (int i = 0; i < size; i++) {
            Report report = batch[i];
            keys[schedulerKeys.length + i] = roomHashPrefix + report.room;
            args[i * ARGS] = report.room;
            args[i * ARGS + 1] = report.status.wireName();
            args[i * ARGS + 2] = report.seconds;
            args[i * ARGS + 3] = report.nanos;
            args[i * ARGS + 4] = report.micros;
            args[i * ARGS + 5] = report.running;
        }
        inFlight.incrementAndGet();
        redis.<List<Object>>evalAsync(Scripts.ROOM_UPDATE, ScriptOutputType.MULTI, keys, args)
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

    /** Completes each report of {@code batch} from the script's reply, replaying the count changes in order. */
    private void complete(Report[] batch, List<Object> reply, Throwable failure) {
        if (failure != null) {
            for (Report report : batch) {
                report.result.completeExceptionally(redis.translate("update room " + report.room, failure));
            }
            return;
        }
        List<RoomStatus> indexed = KeyLayout.STATUS_SETS;
        int[] counts = new int[KeyLayout.COUNT_FIELDS.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = ((Long) reply.get(i)).intValue();
        }
        for (int i = 0; i < batch.length; i++) {
            Report report = batch[i];
            int base = counts.length + i * REPLY;
            int code = ((Long) reply.get(base)).intValue();
            RoomProtocol.Outcome outcome = OUTCOMES[code / 8];
            int previous = code % 8 - 1;
            if (outcome == RoomProtocol.Outcome.APPLIED) {
                int next = ((Long) reply.get(base + 1)).intValue() - 1;
                if (previous != next) {
                    if (previous >= 0) {
                        counts[previous]--;
                    }
                    if (next >= 0) {
                        counts[next]++;
                    }
                }
                counts[KeyLayout.MATCHES] += ((Long) reply.get(base + 2)).intValue();
                counts[KeyLayout.SLOTS] += ((Long) reply.get(base + 3)).intValue();
            }
            report.result.complete(new RoomUpdate(outcome,
                    previous < 0 ? Optional.empty() : Optional.of(indexed.get(previous)), counts(counts)));
        }
    }

    /**
     * Counts in the scripts' order ({@link KeyLayout#COUNT_FIELDS}).
     *
     * @param c creating, ready, allocated, occupied, terminating, error, matches, slots
     */
    public static RoomStatusCounts counts(int[] c) {
        return new RoomStatusCounts(c[0], c[1], c[3], c[4], c[2], c[6], c[7], c[5]);
    }

    /** One report waiting for its reply, with its script arguments already encoded (on the caller's thread). */
    private static final class Report {
        final String room;
        final RoomStatus status;
        final String seconds;
        final String nanos;
        final String micros;
        final String running;
        final CompletableFuture<RoomUpdate> result = new CompletableFuture<>();

        Report(String room, RoomStatus status, Instant timestamp, int runningMatches) {
            this.room = room;
            this.status = status;
            this.seconds = Long.toString(timestamp.getEpochSecond());
            this.nanos = Integer.toString(timestamp.getNano());
            this.micros = Long.toString(KeyLayout.timeScore(timestamp));
            this.running = Integer.toString(runningMatches);
        }
    }
}
