/**
 * Benchmarks (JMH for in-JVM work, load runs for the adapters): each prints a ratio against a baseline measured in
 * the same run, so a figure means the same on a fast and a slow machine. Never run as tests.
 */
package dev.hotspare.bench;
