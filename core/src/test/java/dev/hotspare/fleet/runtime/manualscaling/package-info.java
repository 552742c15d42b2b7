/** Manual scale-up, scale-down and replicas, clamped as the watcher clamps its own scales. */
package dev.hotspare.fleet.runtime.manualscaling;
