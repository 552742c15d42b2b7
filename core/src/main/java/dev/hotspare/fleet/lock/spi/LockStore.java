package dev.hotspare.fleet.lock.spi;

import dev.hotspare.spi.StoreUnavailableException;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Lease primitives every lock backend provides (in memory, Redis, PostgreSQL, Kubernetes Lease objects).
 * {@link dev.hotspare.fleet.lock.LockManager} builds the lock protocol on top; application code rarely calls a
 * store directly.
 *
 * <h2>Contract (checked by {@code dev.hotspare.testkit.lock.LockStoreContract})</h2>
 * <ul>
 *   <li><b>Exclusion.</b> At any instant of the store's clock a key has at most one live lease.
 *       {@link #tryAcquire} is non-reentrant: acquiring a held key fails, even for the caller that holds it.</li>
 *   <li><b>Expiry by the store's clock.</b> A lease lapses at {@link Lease#expiresAt()} as measured by the
 *       store (Redis's clock, the database's {@code now()}, ...), never by the caller's clock.</li>
 *   <li><b>Fencing.</b> For one key, fencing tokens strictly increase across every acquisition ever granted,
 *       including after expiry, after {@link #forceRelease} and — where the backend can promise it, as its
 *       documentation states — after a restart of the store.</li>
 *   <li><b>Owner checks.</b> {@link #renew} and {@link #release} act only if the lease's owner token is still
 *       the live holder; a stale lease can never renew or release a newer holder's lease.</li>
 *   <li><b>Validation before I/O.</b> Keys and prefixes must satisfy {@link LockKeys}; TTLs must be positive.
 *       Invalid arguments throw before anything is sent to the backend.</li>
 *   <li><b>Availability.</b> When the backend cannot answer, methods throw {@link StoreUnavailableException}.</li>
 * </ul>
 * Implementations are thread-safe.
 */
public interface LockStore {

    /**
     * Takes {@code key} for {@code ttl} if nobody holds it now.
     *
     * @return the new lease, or empty if the key is held by a live lease
     * @throws StoreUnavailableException if the backend cannot answer
     */
    Optional<Lease> tryAcquire(String key, Duration ttl);

    /**
     * Extends {@code lease} to expire {@code ttl} after the store's now, if it is still the live holder.
     *
     * @return the lease with its new expiry, or empty if it expired, was released or was force-released
     *         (the holder must then stop acting under it)
     */
    Optional<Lease> renew(Lease lease, Duration ttl);

    /**
     * Releases {@code lease} if it is still the live holder. Idempotent.
     *
     * @return true if this call released a live lease; false if it had already expired or been released
     */
    boolean release(Lease lease);

    /**
     * The live lease on {@code key}, if any (for operators and diagnostics).
     */
    Optional<Lease> inspect(String key);

    /**
     * Every live lease whose key starts with {@code prefix}, ordered by key.
     *
     * @param prefix see {@link LockKeys#requireValidPrefix}; {@code ""} lists everything
     */
    List<Lease> list(String prefix);

    /**
     * Removes whatever lease holds {@code key}, regardless of owner: the operator's tool for a stuck lock.
     * The former holder's renew and release then fail; the next acquisition gets a larger fencing token.
     *
     * @return true if a live lease was removed
     */
    boolean forceRelease(String key);

    /**
     * Checks {@code ttl} is positive; adapters call this before I/O.
     */
    static Duration requirePositive(Duration ttl) {
        if (ttl == null || ttl.isZero() || ttl.isNegative()) {
            throw new IllegalArgumentException("ttl: bad value '" + ttl + "': must be a positive duration");
        }
        return ttl;
    }
}
