/**
 * Pool runtime tests, by behaviour: claim handles: cancelling a handle or its future withdraws the claim and releases a member already assigned.
 */
package dev.hotspare.pool.runtime.handles;
