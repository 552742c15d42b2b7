/**
 * Pool runtime tests, by behaviour: broken members: failed ones replaced.
 */
package dev.hotspare.pool.runtime.broken;
