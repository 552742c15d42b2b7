/**
 * The simulator's file formats: reading claim traces and schedules for {@code hotspare simulate}.
 * <p>
 * <b>No compatibility promise:</b> an {@code …internal} package is used by hotspare's own modules (the fleet server,
 * the command line) and may change or disappear in any release, a patch release included. Build on the public
 * packages instead; the public types of each module are listed in its {@code src/test/resources/public-api.txt}.
 */
package dev.hotspare.sim.internal;
