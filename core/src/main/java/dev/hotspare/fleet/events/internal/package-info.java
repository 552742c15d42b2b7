/**
 * Built-in event forwarders, found through {@link java.util.ServiceLoader} by the name a scheduler config
 * gives; not API.
 */
package dev.hotspare.fleet.events.internal;
