/**
 * Maestro's lock protocol: {@link dev.hotspare.fleet.lock.LockManager} takes a scheduler's locks in one global
 * order (CONFIG &lt; SCALE &lt; TERMINATION &lt; DOWNSCALE &lt; PANIC) through scopes, renews leases every
 * ttl/3, signals a lost lease and gives guarded code a fencing token ({@link dev.hotspare.fleet.lock.Fence})
 * that stores use to reject stale writers.
 */
package dev.hotspare.fleet.lock;
