package dev.hotspare.memory;

import dev.hotspare.fleet.RoomProtocol;
import dev.hotspare.fleet.RoomState;
import dev.hotspare.fleet.RoomStatus;
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
import java.util.Optional;
import java.util.TreeMap;
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
        final Map<String, Map<String, Double>> metrics = new HashMap<>();
        RoomStatusCounts counts = RoomStatusCounts.ZERO;
        long stale;
    }

    private Fleet fleet(String scheduler) {
        Names.requireDns1123Label("scheduler", scheduler);
        return fleets.computeIfAbsent(scheduler, s -> new Fleet());
    }

    @Override
    public RoomUpdate update(String scheduler, String room, RoomStatus status, Instant timestamp) {
        Names.requireDns1123Label("room", room);
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
            Optional<RoomState> next = RoomProtocol.apply(current, room, status, timestamp);
            if (next.isEmpty()) {
                removeLocked(f, room);
            } else {
                previous.ifPresent(p -> f.counts = f.counts.plus(p, -1));
                f.counts = f.counts.plus(status, 1);
                f.rooms.put(room, next.get());
            }
            return new RoomUpdate(outcome, previous, f.counts);
        }
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
    public List<String> roomsWithPingBefore(String scheduler, Instant cutoff) {
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return f.rooms.values().stream()
                    .filter(r -> r.status() != RoomStatus.TERMINATING && r.lastPing().isBefore(cutoff))
                    .sorted(Comparator.comparing(RoomState::lastPing).thenComparing(RoomState::room))
                    .map(RoomState::room).toList();
        }
    }

    @Override
    public List<String> roomsOccupiedBefore(String scheduler, Instant cutoff) {
        Fleet f = fleet(scheduler);
        synchronized (f) {
            return f.rooms.values().stream()
                    .filter(r -> r.status() == RoomStatus.OCCUPIED
                            && r.occupiedSince().map(s -> s.isBefore(cutoff)).orElse(false))
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
            f.counts = f.counts.plus(removed.status(), -1);
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
