/**
 * Which live instance owns which scheduler or pool: a pure assignment of keys to live members
 * ({@link dev.hotspare.ownership.Ownership#assign}). No I/O and no clock; the membership leases that say who
 * is alive are kept by {@link dev.hotspare.ownership.runtime}.
 */
package dev.hotspare.ownership;
