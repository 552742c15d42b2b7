/**
 * Where runtime loops get their time and timers: {@link dev.hotspare.time.TaskScheduler} on real time ({@code
 * system}) or virtual time ({@code virtual}), so the same loops run in production, in tests and in the
 * simulator. Imports nothing else of hotspare.
 */
package dev.hotspare.time;
