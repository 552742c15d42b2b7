/**
 * Pool runtime tests, by behaviour: serving claims: FIFO, hot and warm service, one live claim per name.
 */
package dev.hotspare.pool.runtime.serving;
