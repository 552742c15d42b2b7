/** The scheduler state the watcher records: in-sync after a scale, subdimensioned / overdimensioned while a scale is held back. */
package dev.hotspare.fleet.runtime.schedulerstate;
