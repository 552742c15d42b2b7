/**
 * A scaling policy written outside the library, {@link dev.hotspare.examples.fleet.ReadyBufferPolicy} (trigger type
 * {@code buffer}): how to implement {@code ScalingPolicy} and register it through ServiceLoader. See
 * docs/autoscaling.md.
 */
package dev.hotspare.examples.fleet;
