/**
 * The fleet's runtime plumbing: the worker (one watcher per scheduler), the watcher that applies plans and release commands through the room actions, the rolling replace, the autoscaler replay, and {@link dev.hotspare.fleet.runtime.internal.FleetParts}, which builds a fleet's parts on their own for hotspare's tests (users build them through {@code Fleet.builder()}).
 * <p>
 * <b>No compatibility promise:</b> an {@code …internal} package is used by hotspare's own modules (the fleet server,
 * the command line) and may change or disappear in any release, a patch release included. Build on the public
 * packages instead; the public types of each module are listed in its {@code src/test/resources/public-api.txt}.
 */
package dev.hotspare.fleet.runtime.internal;
