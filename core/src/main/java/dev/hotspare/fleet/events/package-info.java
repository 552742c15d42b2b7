/**
 * Room and scheduler events and where they go: {@link dev.hotspare.fleet.events.FleetEvent}, the {@link
 * dev.hotspare.fleet.events.EventForwarder} plug-in interface and the {@link
 * dev.hotspare.fleet.events.EventDispatcher} that delivers events on its own executor, so a slow forwarder
 * never slows a ping.
 */
package dev.hotspare.fleet.events;
