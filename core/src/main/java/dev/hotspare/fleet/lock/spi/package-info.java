/**
 * The port a lock backend implements: {@link dev.hotspare.fleet.lock.spi.LockStore} (try-acquire with a TTL,
 * renew, release, list, force-release) and the {@link dev.hotspare.fleet.lock.spi.Lease} it returns.
 * Implemented in memory, on Redis, PostgreSQL and Kubernetes Leases; every implementation passes {@code
 * LockStoreContract} from hotspare-testkit.
 */
package dev.hotspare.fleet.lock.spi;
