/** Which locks each watcher step takes, in which order, and when it lets them go. */
package dev.hotspare.fleet.runtime.locking;
