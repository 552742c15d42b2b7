/**
 * The layering rules of hotspare-core as ArchUnit tests; {@code planted} holds classes that break each rule on
 * purpose, to show every rule can fail.
 */
package dev.hotspare.architecture;
