package dev.hotspare.memory;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.ClaimOutcome;
import dev.hotspare.pool.ClaimRequest;
import dev.hotspare.pool.spi.ClaimExistsException;
import dev.hotspare.pool.spi.ClaimStore;
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
        }
        notifyWatchers(pool);
        return true;
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
