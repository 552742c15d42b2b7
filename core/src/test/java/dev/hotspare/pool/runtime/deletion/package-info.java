/**
 * Pool runtime tests, by behaviour: deleting a pool: refused claims, unclaimed members deleted within the budget, claimed ones kept until released.
 */
package dev.hotspare.pool.runtime.deletion;
