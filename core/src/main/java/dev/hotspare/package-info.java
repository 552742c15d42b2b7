/**
 * The root of hotspare: only what describes the library as a whole ({@link dev.hotspare.internal.HotspareVersion}); every
 * feature lives in its own package below.
 */
package dev.hotspare;
