package dev.hotspare.memory;

import dev.hotspare.fleet.lock.spi.Lease;
import dev.hotspare.fleet.lock.spi.LockKeys;
import dev.hotspare.fleet.lock.spi.LockStore;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * {@link LockStore} in process memory, judging expiry by an injected {@link Clock} (a
 * {@link dev.hotspare.time.VirtualTimeScheduler.VirtualClock} in tests and simulations).
 *
 * <p>Fencing tokens are strictly increasing per key for the lifetime of this object. They do <b>not</b>
 * survive a restart: a new instance starts again at 1. That is safe only when every holder and every fenced
 * resource lives in the same process as the store (the embedded case); a lock shared between processes
 * needs a durable backend.
 *
 * <p>Thread-safe; one monitor guards all state, which is enough for an embedded store.
 */
public final class InMemoryLockStore implements LockStore {

    private final Clock clock;
    private final Map<String, Lease> held = new TreeMap<>();
    private final Map<String, Long> lastToken = new HashMap<>();
    // Owner tokens only need to be unique among this store's acquisitions: an instance id plus a counter is
    // enough and far cheaper than a random UUID per acquisition.
    private final String instanceId = UUID.randomUUID().toString();
    private long acquisitions;

    public InMemoryLockStore(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public synchronized Optional<Lease> tryAcquire(String key, Duration ttl) {
        LockKeys.requireValid(key);
        LockStore.requirePositive(ttl);
        Instant now = clock.instant();
        if (live(key, now).isPresent()) {
            return Optional.empty();
        }
        long token = lastToken.merge(key, 1L, Long::sum);
        Lease lease = new Lease(key, instanceId + "-" + (++acquisitions), token, now, now.plus(ttl));
        held.put(key, lease);
        return Optional.of(lease);
    }

    @Override
    public synchronized Optional<Lease> renew(Lease lease, Duration ttl) {
        Objects.requireNonNull(lease, "lease");
        LockStore.requirePositive(ttl);
        Instant now = clock.instant();
        Optional<Lease> current = live(lease.key(), now);
        if (current.isEmpty() || !current.get().ownerToken().equals(lease.ownerToken())) {
            return Optional.empty();
        }
        Lease renewed = current.get().withExpiresAt(now.plus(ttl));
        held.put(lease.key(), renewed);
        return Optional.of(renewed);
    }

    @Override
    public synchronized boolean release(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        Optional<Lease> current = live(lease.key(), clock.instant());
        if (current.isEmpty() || !current.get().ownerToken().equals(lease.ownerToken())) {
            return false;
        }
        held.remove(lease.key());
        return true;
    }

    @Override
    public synchronized Optional<Lease> inspect(String key) {
        LockKeys.requireValid(key);
        return live(key, clock.instant());
    }

    @Override
    public synchronized List<Lease> list(String prefix) {
        LockKeys.requireValidPrefix(prefix);
        Instant now = clock.instant();
        List<Lease> out = new ArrayList<>();
        for (String key : List.copyOf(held.keySet())) {
            if (key.startsWith(prefix)) {
                live(key, now).ifPresent(out::add);
            }
        }
        return out;
    }

    @Override
    public synchronized boolean forceRelease(String key) {
        LockKeys.requireValid(key);
        boolean wasLive = live(key, clock.instant()).isPresent();
        held.remove(key);
        return wasLive;
    }

    /** The live lease on key at {@code now}; drops an expired one on the way. */
    private Optional<Lease> live(String key, Instant now) {
        Lease lease = held.get(key);
        if (lease == null) {
            return Optional.empty();
        }
        if (lease.isExpiredAt(now)) {
            held.remove(key);
            return Optional.empty();
        }
        return Optional.of(lease);
    }
}
