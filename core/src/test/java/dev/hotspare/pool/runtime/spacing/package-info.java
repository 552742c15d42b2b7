/**
 * Pool runtime tests, by behaviour: spacing the passes that events ask for.
 */
package dev.hotspare.pool.runtime.spacing;
