/** Events to forwarders: player events, the webhook forwarder, and forwarders that never slow a ping. */
package dev.hotspare.fleet.runtime.forwarding;
