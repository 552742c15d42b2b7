/**
 * Test support for the lock feature: {@link dev.hotspare.testkit.lock.LockStoreContract}, the suite every
 * {@code LockStore} backend runs (leases, TTL expiry, monotonic fencing tokens, listing and force-release), on
 * virtual or real time.
 */
package dev.hotspare.testkit.lock;
