package dev.hotspare.fleet.lock.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * One acquisition of a lock key, as granted by a {@link LockStore}.
 *
 * @param key          the lock key (see {@link LockKeys})
 * @param ownerToken   unique to this acquisition; renew and release succeed only when it is still the holder
 * @param fencingToken strictly larger than every token ever granted before for this key; pass it with writes
 *                     to stores that reject stale writers
 * @param acquiredAt   when the store granted the lease, by the store's clock
 * @param expiresAt    when the lease lapses unless renewed, by the store's clock
 */
public record Lease(String key, String ownerToken, long fencingToken, Instant acquiredAt, Instant expiresAt) {

    public Lease {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(ownerToken, "ownerToken");
        Objects.requireNonNull(acquiredAt, "acquiredAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (ownerToken.isBlank()) {
            throw new IllegalArgumentException("ownerToken: bad value '" + ownerToken + "': must not be blank");
        }
        if (expiresAt.isBefore(acquiredAt)) {
            throw new IllegalArgumentException("expiresAt: bad value '" + expiresAt + "': before acquiredAt " + acquiredAt);
        }
    }

    /**
     * Whether the lease has lapsed at {@code storeNow} (a store's own clock reading).
     */
    public boolean isExpiredAt(Instant storeNow) {
        return !storeNow.isBefore(expiresAt);
    }

    /**
     * The same acquisition with a new expiry, as returned by a renewal.
     */
    public Lease withExpiresAt(Instant newExpiresAt) {
        return new Lease(key, ownerToken, fencingToken, acquiredAt, newExpiresAt);
    }
}
