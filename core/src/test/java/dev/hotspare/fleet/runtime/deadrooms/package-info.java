/** Dead rooms: silent for the ping timeout or occupied for the occupied timeout (both inclusive), removed by the watcher. */
package dev.hotspare.fleet.runtime.deadrooms;
