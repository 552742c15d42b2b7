/** Panic scale: one scale-up under the PANIC lock when a room that just became occupied pushes occupancy past the limit. */
package dev.hotspare.fleet.runtime.panicscale;
