/**
 * Pool runtime tests, by behaviour: orphaned members: a claim missing from the claim store never deletes its member before the grace period, and an empty read never does.
 */
package dev.hotspare.pool.runtime.orphans;
