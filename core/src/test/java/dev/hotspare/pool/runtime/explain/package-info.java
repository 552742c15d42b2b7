/**
 * Pool runtime tests, by behaviour: explaining claims: one typed reason per claim, with the member and when it should be ready.
 */
package dev.hotspare.pool.runtime.explain;
