/**
 * Pool runtime tests, by behaviour: closing a controller: it waits for the pass that is running and starts none after.
 */
package dev.hotspare.pool.runtime.shutdown;
