/**
 * How the starter carries out the {@code hotspare.*} properties: one {@link dev.hotspare.spring.internal.Backend}
 * per store choice, the conversion of pool properties to pool specs, the pools' runtime and its lifecycle, and
 * the health indicators. Nothing here is public API; it may change in any release.
 */
package dev.hotspare.spring.internal;
