package dev.hotspare.memory;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Claim.ClaimOutcome;
import dev.hotspare.pool.Claim.Reservation;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.ClaimStore.ClaimExistsException;
import dev.hotspare.validation.Names;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The embedded default {@link ClaimStore}: claims in memory (with their class, deadline and served outcome), lost
 * with the process. Thread-safe.
 */
public final class InMemoryClaimStore implements ClaimStore {

    private final Map<String, Map<String, Claim>> claims = new HashMap<>();
    /** pool → member id → claim name, for the "one member, one claim" rule. */
    private final Map<String, Map<String, String>> holders = new HashMap<>();
    private final Map<String, List<Runnable>> watchers = new HashMap<>();
    /** pool → idempotency key → reservation (its claim as it was when reserved; read back with the live claim). */
    private final Map<String, Map<String, Reservation>> reservations = new HashMap<>();

    @Override
    public Claim submit(String pool, String claimName, Optional<Duration> lifetime, Instant now) {
        Names.requireDns1123Label("claimName", claimName);
        Objects.requireNonNull(lifetime, "lifetime");
        return submit(pool, new ClaimRequest(claimName, lifetime, null, Optional.empty()), now);
    }

    @Override
    public Claim submit(String pool, ClaimRequest request, Instant now) {
        Names.requireDns1123Label("pool", pool);
        Objects.requireNonNull(now, "now");
        String claimName = request.name();
        Claim claim = request.toClaim(now);
        synchronized (this) {
            Map<String, Claim> forPool = claims.computeIfAbsent(pool, p -> new HashMap<>());
            if (forPool.containsKey(claimName)) {
                throw new ClaimExistsException(pool, claimName);
            }
            forPool.put(claimName, claim);
        }
        notifyWatchers(pool);
        return claim;
    }

    @Override
    public synchronized Optional<Claim> find(String pool, String claimName) {
        return Optional.ofNullable(claims.getOrDefault(pool, Map.of()).get(claimName));
    }

    @Override
    public synchronized List<Claim> live(String pool) {
        List<Claim> out = new ArrayList<>(claims.getOrDefault(pool, Map.of()).values());
        out.sort(Claim.TOTAL_ORDER);
        return out;
    }

    @Override
    public AssignOutcome assign(String pool, String claimName, String memberId, Instant at) {
        return assign(pool, claimName, memberId, at, Optional.empty());
    }

    @Override
    public AssignOutcome assign(String pool, String claimName, String memberId, Instant at, Optional<ClaimOutcome> outcome) {
        Objects.requireNonNull(outcome, "outcome");
        synchronized (this) {
            Map<String, Claim> forPool = claims.get(pool);
            Claim claim = forPool == null ? null : forPool.get(claimName);
            if (claim == null) {
                return AssignOutcome.CLAIM_NOT_FOUND;
            }
            if (claim.assignedMember().isPresent()) {
                return claim.assignedMember().get().equals(memberId)
                        ? AssignOutcome.ALREADY_ASSIGNED : AssignOutcome.CLAIM_ALREADY_ASSIGNED;
            }
            Map<String, String> byMember = holders.computeIfAbsent(pool, p -> new HashMap<>());
            if (byMember.containsKey(memberId)) {
                return AssignOutcome.MEMBER_TAKEN;
            }
            byMember.put(memberId, claimName);
            forPool.put(claimName, claim.assigned(memberId, at, outcome));
        }
        notifyWatchers(pool);
        return AssignOutcome.ASSIGNED;
    }

    @Override
    public boolean markReady(String pool, String claimName, Instant readyAt) {
        Objects.requireNonNull(readyAt, "readyAt");
        synchronized (this) {
            Map<String, Claim> forPool = claims.get(pool);
            Claim claim = forPool == null ? null : forPool.get(claimName);
            if (claim == null || claim.assignedAt().isEmpty() || claim.isReady() || readyAt.isBefore(claim.assignedAt().get())) {
                return false;
            }
            forPool.put(claimName, claim.ready(readyAt));
        }
        notifyWatchers(pool);
        return true;
    }

    @Override
    public boolean release(String pool, String claimName) {
        synchronized (this) {
            Map<String, Claim> forPool = claims.get(pool);
            Claim removed = forPool == null ? null : forPool.remove(claimName);
            if (removed == null) {
                return false;
            }
            removed.assignedMember().ifPresent(member -> holders.getOrDefault(pool, new HashMap<>()).remove(member));
            dropReservationOf(pool, claimName);
        }
        notifyWatchers(pool);
        return true;
    }

    @Override
    public boolean releasePending(String pool, String claimName) {
        synchronized (this) {
            Map<String, Claim> forPool = claims.get(pool);
            Claim claim = forPool == null ? null : forPool.get(claimName);
            if (claim == null || claim.isAssigned()) {
                return false;
            }
            forPool.remove(claimName);
            dropReservationOf(pool, claimName);
        }
        notifyWatchers(pool);
        return true;
    }

    @Override
    public Reservation reserve(String pool, String key, ClaimRequest request, Duration ttl, Instant now) {
        Names.requireDns1123Label("pool", pool);
        Reservation.requireValidKey(key);
        Objects.requireNonNull(request, "request");
        requirePositive(ttl);
        Objects.requireNonNull(now, "now");
        Reservation made;
        synchronized (this) {
            Optional<Reservation> live = findReservation(pool, key, now);
            if (live.isPresent()) {
                return live.get();
            }
            Reservation stale = reservations.getOrDefault(pool, Map.of()).get(key);
            if (stale != null) {
                // Expired, not yet swept: it ends now, so the key starts afresh.
                removeClaim(pool, stale.claim().name());
            }
            Map<String, Claim> forPool = claims.computeIfAbsent(pool, p -> new HashMap<>());
            if (forPool.containsKey(request.name())) {
                throw new ClaimExistsException(pool, request.name());
            }
            Claim claim = request.toClaim(now);
            forPool.put(claim.name(), claim);
            made = new Reservation(key, claim, now.plus(ttl), Optional.empty());
            reservations.computeIfAbsent(pool, p -> new HashMap<>()).put(key, made);
        }
        notifyWatchers(pool);
        return made;
    }

    @Override
    public synchronized Optional<Reservation> confirm(String pool, String key, Instant now) {
        Reservation.requireValidKey(key);
        Objects.requireNonNull(now, "now");
        Optional<Reservation> live = findReservation(pool, key, now);
        if (live.isEmpty() || live.get().confirmed()) {
            return live;
        }
        Reservation confirmed = new Reservation(key, live.get().claim(), live.get().expiresAt(), Optional.of(now));
        reservations.get(pool).put(key, confirmed);
        return Optional.of(confirmed);
    }

    @Override
    public synchronized Optional<Reservation> findReservation(String pool, String key, Instant now) {
        Objects.requireNonNull(now, "now");
        Reservation r = reservations.getOrDefault(pool, Map.of()).get(key);
        Claim claim = r == null ? null : claims.getOrDefault(pool, Map.of()).get(r.claim().name());
        if (claim == null || r.isExpiredAt(now)) {
            return Optional.empty();
        }
        return Optional.of(new Reservation(key, claim, r.expiresAt(), r.confirmedAt()));
    }

    @Override
    public List<Reservation> expireReservations(String pool, Instant now) {
        Objects.requireNonNull(now, "now");
        List<Reservation> ended = new ArrayList<>();
        synchronized (this) {
            for (Reservation r : List.copyOf(reservations.getOrDefault(pool, Map.of()).values())) {
                Claim claim = claims.getOrDefault(pool, Map.of()).get(r.claim().name());
                if (claim != null && r.isExpiredAt(now)) {
                    ended.add(new Reservation(r.key(), claim, r.expiresAt(), r.confirmedAt()));
                    removeClaim(pool, claim.name());
                }
            }
        }
        if (!ended.isEmpty()) {
            notifyWatchers(pool);
        }
        ended.sort(java.util.Comparator.comparing(Reservation::key));
        return List.copyOf(ended);
    }

    /** Removes a claim and what hangs on it; called with the monitor held, watchers are the caller's to notify. */
    private void removeClaim(String pool, String claimName) {
        Claim removed = claims.getOrDefault(pool, new HashMap<>()).remove(claimName);
        if (removed != null) {
            removed.assignedMember().ifPresent(member -> holders.getOrDefault(pool, new HashMap<>()).remove(member));
        }
        dropReservationOf(pool, claimName);
    }

    /** Called with the monitor held, whenever a claim leaves the store: its reservation goes with it. */
    private void dropReservationOf(String pool, String claimName) {
        Map<String, Reservation> forPool = reservations.get(pool);
        if (forPool != null) {
            forPool.values().removeIf(r -> r.claim().name().equals(claimName));
        }
    }

    private static void requirePositive(Duration ttl) {
        Objects.requireNonNull(ttl, "ttl");
        if (ttl.isNegative() || ttl.isZero()) {
            throw new dev.hotspare.validation.ValidationException(dev.hotspare.validation.Problem.of("ttl", ttl, "must be positive"));
        }
    }

    @Override
    public AutoCloseable watch(String pool, Runnable onChange) {
        List<Runnable> forPool;
        synchronized (this) {
            forPool = watchers.computeIfAbsent(pool, p -> new CopyOnWriteArrayList<>());
        }
        forPool.add(onChange);
        return () -> forPool.remove(onChange);
    }

    private void notifyWatchers(String pool) {
        List<Runnable> forPool;
        synchronized (this) {
            forPool = watchers.get(pool);
        }
        if (forPool != null) {
            forPool.forEach(Runnable::run);
        }
    }
}
