/**
 * Helpers shared by the features' runtimes (guarding and fanning out listeners). Not API: may change in any
 * release.
 */
package dev.hotspare.internal;
