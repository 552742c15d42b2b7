/**
 * Pool runtime tests, by behaviour: claim classes, deadlines and typed outcomes — service order on virtual time,
 * expiry at the deadline, and the outcome reported to the KPIs, the handle and explain.
 */
package dev.hotspare.pool.runtime.classes;
