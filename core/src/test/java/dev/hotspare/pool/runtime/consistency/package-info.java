/**
 * Pool runtime tests, by behaviour: inconsistent member and claim records: repaired or reported, never a pass that fails for good.
 */
package dev.hotspare.pool.runtime.consistency;
