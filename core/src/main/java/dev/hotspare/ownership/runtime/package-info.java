/**
 * Membership and ownership at run time: every instance keeps a membership lease alive on the shared
 * {@link dev.hotspare.fleet.lock.spi.LockStore}, reads the live members from it, and takes a fenced lease on
 * each key the pure {@link dev.hotspare.ownership.Ownership} assignment gives it before it acts on that key.
 */
package dev.hotspare.ownership.runtime;
