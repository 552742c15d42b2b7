/**
 * The one place hotspare configures Jackson: readers and writers for JSON and YAML that reject unknown fields,
 * write ISO-8601 times, and turn every parse failure into problems with a path and the bad value.
 */
package dev.hotspare.json;
