/**
 * The autoscaler: {@link dev.hotspare.fleet.autoscale.Autoscaler} decides, exactly and purely, how many rooms a
 * scheduler needs from its config, room counts and usage windows; the built-in scaling policies ({@code room},
 * {@code cpu}, {@code mem}, {@code legacy}) and the plug-in interface {@link
 * dev.hotspare.fleet.autoscale.ScalingPolicy}. No I/O and no clock: recording usage points is the runtime's
 * job.
 */
package dev.hotspare.fleet.autoscale;
