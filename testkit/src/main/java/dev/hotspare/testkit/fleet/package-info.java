/**
 * Test support for the fleet feature: the contract suites every {@code RoomStatusStore},
 * {@code SchedulerStore}, {@code UsageHistory} and {@code UsageMetrics} backend runs. A backend subclasses a
 * suite and returns a fresh store; the in-memory implementations, Redis, PostgreSQL and Kubernetes run the same
 * suites, so they answer every question the same way. {@link dev.hotspare.testkit.fleet.FleetGenerators}
 * generates autoscaling situations for users' own fleet properties.
 */
package dev.hotspare.testkit.fleet;
