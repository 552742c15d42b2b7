/**
 * Hot spares sized from demand and a wait target: the pure {@link dev.hotspare.pool.sizing.HotSpareSizer} turns
 * recent claim arrivals, measured resume and install times and a target such as {@code p95 <= PT30S} into the
 * running count (and a recommended size) for the next interval, within bounds, at a bounded pace, and under
 * scheduled overrides. No I/O, no clock.
 */
package dev.hotspare.pool.sizing;
