/** Workers: one watcher per scheduler, shared stores, cached configs, locked steps skipped, shutdown. */
package dev.hotspare.fleet.runtime.workers;
