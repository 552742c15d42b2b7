package dev.hotspare.memory;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomState.RoomStatus;
import dev.hotspare.fleet.RoomStatusCounts;
import dev.hotspare.fleet.spi.RoomStatusStore;
import dev.hotspare.validation.Names;
import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link RoomStatusStore} in memory: the embedded default and the reference the contract suite is proven
 * on. Thread-safe; each scheduler's rooms are guarded by their own monitor, so updates of one scheduler are
 * atomic and different schedulers never contend.
 */
public final class InMemoryRoomStatusStore implements RoomStatusStore {

    private final Map<String, Fleet> fleets = new ConcurrentHashMap<>();

    /** One scheduler's rooms. Guarded by its own monitor. */
    private static final class Fleet {
        final Map<String, RoomState> rooms = new TreeMap<>();
        /** Rooms that host matches, in allocation order: finding the first with a free slot is a tree search. */
        final NavigableSet<RoomState> hosting = new TreeSet<>(RoomProtocol.ALLOCATION_ORDER);
        final Map<String, Map<String, Double>> metrics = new HashMap<>();
        RoomStatusCounts counts = RoomStatusCounts.ZERO;
        long stale;
    }

    private Fleet fleet(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        return fleets.computeIfAbsent(scheduler, s -> new Fleet());
    }

    @Override
    public RoomUpdate update(String scheduler, String room, RoomStatus status, Instant timestamp, int runningMatches) {
        Names.requireDns1123Label("room", room);
        RoomProtocol.requireRunningMatches(runningMatches);
        Fleet f = fleet(scheduler);
        synchronized (f) {
            Optional<RoomState> current = Optional.ofNullable(f.rooms.get(room));
            Optional<RoomStatus> previous = current.map(RoomState::status);
            RoomProtocol.Outcome outcome = RoomProtocol.outcome(current, status, timestamp);
            if (outcome == RoomProtocol.Outcome.STALE) {
                f.stale++;
            }
            if (outcome != RoomProtocol.Outcome.APPLIED) {
                return new RoomUpdate(outcome, previous, f.counts);
            }
            Optional<RoomState> next = RoomProtocol.apply(current, room, status, timestamp, runningMatches);
            if (next.isEmpty()) {
                removeLocked(f, room);
            } else {
                put(f, current, next.get());
            }
            return new RoomUpdate(outcome, previous, f.counts);
        }
    }

    /** Replaces a room's state, keeping the counts and the allocation index. Called holding the fleet's monitor. */
    private static void put(Fleet f, Optional<RoomState> current, RoomState next) {
        f.counts = RoomProtocol.recount(f.counts, current, Optional.of(next));
        current.ifPresent(f.hosting::remove);
        if (next.status().hostsMatches()) {
            f.hosting.add(next);
        }
        f.rooms.put(next.room(), next);
    }

    /** Hosting rooms with a free slot, in allocation order: those using at most {@code maxMatchesPerRoom - 1} slots. */
    private static NavigableSet<RoomState> withFreeSlot(Fleet f, int maxMatchesPerRoom) {
        // In allocation order (most used first, then by name) this probe sorts just before every room using
        // maxMatchesPerRoom - 1 slots or fewer.
        RoomState probe = new RoomState("", RoomStatus.READY, Instant.EPOCH, Optional.empty(), maxMatchesPerRoom - 1, 0,
                Optional.empty());
        return f.hosting.tailSet(probe, true);
    }

    @Override
    public RoomStatusCounts counts(String scheduler) {
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return f.counts;
        }
    }

    @Override
    public Optional<RoomState> room(String scheduler, String room) {
        Names.requireDns1123Label("room", room);
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return Optional.ofNullable(f.rooms.get(room));
        }
    }

    @Override
    public List<String> rooms(String scheduler, RoomStatus status) {
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return f.rooms.values().stream().filter(r -> r.status() == status).map(RoomState::room).toList();
        }
    }

    @Override
    public List<String> roomsWithPingAtOrBefore(String scheduler, Instant cutoff) {
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return f.rooms.values().stream()
                    .filter(r -> r.status() != RoomStatus.TERMINATING && !r.lastPing().isAfter(cutoff))
                    .sorted(Comparator.comparing(RoomState::lastPing).thenComparing(RoomState::room))
                    .map(RoomState::room).toList();
        }
    }

    @Override
    public List<String> roomsOccupiedAtOrBefore(String scheduler, Instant cutoff) {
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return f.rooms.values().stream()
                    .filter(r -> r.status() == RoomStatus.OCCUPIED
                            && r.occupiedSince().map(s -> !s.isAfter(cutoff)).orElse(false))
                    .sorted(Comparator.comparing((RoomState r) -> r.occupiedSince().orElseThrow()).thenComparing(RoomState::room))
                    .map(RoomState::room).toList();
        }
    }

    @Override
    public void setRoomMetric(String scheduler, String room, String metric, double value) {
        Names.requireDns1123Label("room", room);
        if (!metric.equals("cpu") && !metric.equals("mem")) {
            throw new ValidationException(Problem.of("metric", metric, "room usage is recorded for cpu or mem only"));
        }
        Fleet f = fleet(scheduler);
        synchronized (f) {
            f.metrics.computeIfAbsent(metric, m -> new HashMap<>()).put(room, value);
        }
    }

    @Override
    public List<String> roomsOrderedByMetric(String scheduler, String metric, int limit) {
        if (!ORDERING_METRICS.contains(metric)) {
            throw new ValidationException(Problem.of("metric", metric, "unknown metric; known: cpu, legacy, mem, room"));
        }
        if (limit < 1) {
            throw new ValidationException(Problem.of("limit", limit, "must be at least 1"));
        }
        Fleet f = fleet(scheduler);
        synchronized (f) {
            if (metric.equals("room") || metric.equals("legacy")) {
                return f.rooms.values().stream().filter(r -> r.status() == RoomStatus.READY)
                        .map(RoomState::room).limit(limit).toList();
            }
            Map<String, Double> values = f.metrics.getOrDefault(metric, Map.of());
            return values.entrySet().stream()
                    .filter(e -> f.rooms.containsKey(e.getKey()) && f.rooms.get(e.getKey()).status() != RoomStatus.TERMINATING)
                    .sorted(Map.Entry.<String, Double>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                    .map(Map.Entry::getKey).limit(limit).toList();
        }
    }

    @Override
    public List<String> roomsWithFreeSlots(String scheduler, int maxMatchesPerRoom, int limit) {
        requireSlots(maxMatchesPerRoom);
        if (limit < 1) {
            throw new ValidationException(Problem.of("limit", limit, "must be at least 1"));
        }
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return withFreeSlot(f, maxMatchesPerRoom).stream().limit(limit).map(RoomState::room).toList();
        }
    }

    @Override
    public Optional<String> allocate(String scheduler, int maxMatchesPerRoom, Instant now) {
        requireSlots(maxMatchesPerRoom);
        Objects.requireNonNull(now, "now");
        Fleet f = fleet(scheduler);
        synchronized (f) {
            NavigableSet<RoomState> free = withFreeSlot(f, maxMatchesPerRoom);
            Optional<RoomState> chosen = free.isEmpty() ? Optional.empty() : Optional.of(free.first());
            chosen.ifPresent(room -> put(f, chosen, RoomProtocol.allocate(room, now)));
            return chosen.map(RoomState::room);
        }
    }

    @Override
    public List<String> expireAllocations(String scheduler, Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        Fleet f = fleet(scheduler);
        synchronized (f) {
            List<RoomState> expired = f.rooms.values().stream().filter(r -> RoomProtocol.allocationExpired(r, cutoff)).toList();
            expired.forEach(room -> put(f, Optional.of(room), RoomProtocol.expireAllocation(room)));
            return expired.stream().map(RoomState::room).toList();
        }
    }

    private static void requireSlots(int maxMatchesPerRoom) {
        if (maxMatchesPerRoom < 1) {
            throw new ValidationException(Problem.of("maxMatchesPerRoom", maxMatchesPerRoom, "must be at least 1"));
        }
    }

    @Override
    public RoomStatusCounts remove(String scheduler, String room) {
        Names.requireDns1123Label("room", room);
        Fleet f = fleet(scheduler);
        synchronized (f) {
            removeLocked(f, room);
            return f.counts;
        }
    }

    private static void removeLocked(Fleet f, String room) {
        RoomState removed = f.rooms.remove(room);
        if (removed != null) {
            f.counts = RoomProtocol.recount(f.counts, Optional.of(removed), Optional.empty());
            f.hosting.remove(removed);
        }
        f.metrics.values().forEach(m -> m.remove(room));
    }

    @Override
    public void removeScheduler(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        fleets.remove(scheduler);
    }

    @Override
    public long staleReports(String scheduler) {
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return f.stale;
        }
    }
}
