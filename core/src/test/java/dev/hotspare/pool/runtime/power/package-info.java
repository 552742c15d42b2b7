/**
 * Pool runtime tests, by behaviour: power planning: hot spares, hibernation of the rest and of claimed members after hibernateAfter.
 */
package dev.hotspare.pool.runtime.power;
