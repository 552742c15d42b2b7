/**
 * Pool runtime tests, by behaviour: releasing claims: the release mark written on the member before the claim ends, lifetime expiry, interrupted releases.
 */
package dev.hotspare.pool.runtime.releasemark;
