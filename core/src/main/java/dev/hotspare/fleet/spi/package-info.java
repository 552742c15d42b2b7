/**
 * The ports a fleet backend implements: scheduler desired state and versions ({@link
 * dev.hotspare.fleet.spi.SchedulerStore}), room statuses ({@link dev.hotspare.fleet.spi.RoomStatusStore}), the
 * autoscaler's usage history and cpu / mem readings. Every implementation passes the matching contract suite in
 * hotspare-testkit.
 */
package dev.hotspare.fleet.spi;
