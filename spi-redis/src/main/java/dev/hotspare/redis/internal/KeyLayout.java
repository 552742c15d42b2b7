package dev.hotspare.redis.internal;

import dev.hotspare.fleet.RoomState.RoomStatus;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds every key of the Redis stores under one prefix (the layout users read in
 * {@link dev.hotspare.redis.RedisKeys}), and the KEYS list of the room scripts in the one order they all share
 * ({@code room-keys.lua}). Every name given here must already be validated: a scheduler, room or metric as a
 * DNS-1123 label, a lock key by {@link dev.hotspare.fleet.lock.spi.LockKeys}, so nothing reaches outside the
 * layout.
 */
public final class KeyLayout {

    /**
     * The status sets in the room scripts' order, {@code KEYS[9..14]}; a status's position here is also its code
     * (minus one) in the update script's reply, and its count's position in the counts the scripts return.
     */
    public static final List<RoomStatus> STATUS_SETS = List.of(RoomStatus.CREATING, RoomStatus.READY,
            RoomStatus.ALLOCATED, RoomStatus.OCCUPIED, RoomStatus.TERMINATING, RoomStatus.ERROR);

    /** The fields of the counts hash, in the order the scripts return them: the statuses, then matches and slots. */
    public static final List<String> COUNT_FIELDS = List.of("creating", "ready", "allocated", "occupied", "terminating",
            "error", "matches", "slots");

    /** The position of the running-match total in {@link #COUNT_FIELDS}. */
    public static final int MATCHES = COUNT_FIELDS.indexOf("matches");

    /** The position of the allocated-slot total in {@link #COUNT_FIELDS}. */
    public static final int SLOTS = COUNT_FIELDS.indexOf("slots");

    /** How many of the room scripts' KEYS belong to the scheduler; room hashes follow from this index on. */
    public static final int SCHEDULER_KEYS = 8 + STATUS_SETS.size();

    private final String prefix;

    /** The layout under {@code prefix}, which must already be validated. */
    public KeyLayout(String prefix) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** The prefix. */
    public String prefix() {
        return prefix;
    }

    /** {@code {prefix}:{<scheduler>}:}, the start of every key of the scheduler; the braces are its Cluster hash tag. */
    public String scheduler(String scheduler) {
        return prefix + ":{" + scheduler + "}:";
    }

    /** The start of the scheduler's room hashes: a room's hash is this plus the room's name. */
    public String roomHashPrefix(String scheduler) {
        return scheduler(scheduler) + "room:";
    }

    /** The hash of {@code room}: status, last ping, occupied since. */
    public String roomHash(String scheduler, String room) {
        return roomHashPrefix(scheduler) + room;
    }

    /** The sorted set of the scheduler's rooms in {@code status} (not {@link RoomStatus#TERMINATED}, which has none). */
    public String statusSet(String scheduler, RoomStatus status) {
        return scheduler(scheduler) + "rooms:" + status.wireName();
    }

    /**
     * The sorted set of rooms that host matches, by −(slots in use), so the most used come first.
     *
     * @param scheduler the scheduler, validated
     * @return the key
     */
    public String slots(String scheduler) {
        return scheduler(scheduler) + "slots";
    }

    /**
     * The sorted set of rooms with allocated slots, by their last allocation ({@link #timeScore}).
     *
     * @param scheduler the scheduler, validated
     * @return the key
     */
    public String allocations(String scheduler) {
        return scheduler(scheduler) + "allocations";
    }

    /**
     * The hash of room counts per status, running matches and allocated slots.
     *
     * @param scheduler the scheduler, validated
     * @return the key
     */
    public String counts(String scheduler) {
        return scheduler(scheduler) + "counts";
    }

    /** The sorted set of non-terminating rooms by last ping ({@link #timeScore}). */
    public String pings(String scheduler) {
        return scheduler(scheduler) + "pings";
    }

    /** The sorted set of occupied rooms by occupied-since ({@link #timeScore}). */
    public String occupied(String scheduler) {
        return scheduler(scheduler) + "occupied";
    }

    /** The count of stale reports. */
    public String stale(String scheduler) {
        return scheduler(scheduler) + "stale";
    }

    /** The sorted set of non-terminating rooms by their recorded {@code metric} (cpu or mem) usage. */
    public String roomMetric(String scheduler, String metric) {
        return scheduler(scheduler) + "metric:" + metric;
    }

    /**
     * The scheduler's part of every room script's KEYS, in the order {@code room-keys.lua} names them: counts,
     * pings, occupied, stale, cpu, mem, slots, allocations, then the {@link #STATUS_SETS}. A fresh array on every call.
     */
    public String[] roomScriptKeys(String scheduler) {
        String[] all = new String[SCHEDULER_KEYS];
        all[0] = counts(scheduler);
        all[1] = pings(scheduler);
        all[2] = occupied(scheduler);
        all[3] = stale(scheduler);
        all[4] = roomMetric(scheduler, "cpu");
        all[5] = roomMetric(scheduler, "mem");
        all[6] = slots(scheduler);
        all[7] = allocations(scheduler);
        for (int i = 0; i < STATUS_SETS.size(); i++) {
            all[8 + i] = statusSet(scheduler, STATUS_SETS.get(i));
        }
        return all;
    }

    /** {@code schedulerKeys} (from {@link #roomScriptKeys}) followed by room hashes: the KEYS of a call about rooms. */
    public static String[] withRooms(String[] schedulerKeys, String... roomHashes) {
        String[] all = Arrays.copyOf(schedulerKeys, schedulerKeys.length + roomHashes.length);
        System.arraycopy(roomHashes, 0, all, schedulerKeys.length, roomHashes.length);
        return all;
    }

    /** The list of the scheduler's autoscaler points for {@code metric}. */
    public String usage(String scheduler, String metric) {
        return usagePrefix(scheduler) + metric;
    }

    /** The start of the scheduler's usage lists: a list's key is this plus the metric. */
    public String usagePrefix(String scheduler) {
        return scheduler(scheduler) + "usage:";
    }

    /** The set of metrics the scheduler has a usage list for. */
    public String usageMetrics(String scheduler) {
        return scheduler(scheduler) + "usage-metrics";
    }

    /** The lease of a lock key; the braces are its Cluster hash tag. */
    public String lease(String lockKey) {
        return prefix + ":lock:{" + lockKey + "}";
    }

    /** The fencing counter of a lock key (same slot as its lease). */
    public String fence(String lockKey) {
        return lease(lockKey) + ":fence";
    }

    /** The SCAN pattern matching the leases (not the fence counters) of keys starting with {@code lockPrefix}. */
    public String leasePattern(String lockPrefix) {
        return prefix + ":lock:{" + lockPrefix + "*}";
    }

    /** The lock key inside a lease's key; empty if the key is not a lease. */
    public Optional<String> lockKeyOf(String leaseKey) {
        String start = prefix + ":lock:{";
        if (!leaseKey.startsWith(start) || !leaseKey.endsWith("}")) {
            return Optional.empty();
        }
        return Optional.of(leaseKey.substring(start.length(), leaseKey.length() - 1));
    }

    /**
     * The score of {@code instant} in the pings and occupied sets: epoch microseconds, so the dead-room cut-offs
     * compare at microsecond precision.
     *
     * @throws ArithmeticException if the instant is too far from the epoch to fit
     */
    public static long timeScore(Instant instant) {
        return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
    }
}
