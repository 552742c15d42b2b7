/** Maestro 10 rooms hosting several matches: running matches, slot allocation and packing, allocation timeouts, the roomOccupancy policy on a whole fleet. */
package dev.hotspare.fleet.runtime.multimatch;
