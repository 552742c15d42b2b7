/**
 * Architecture rules, as ArchUnit checks, that every hotspare module applies to its own classes: no package cycles,
 * no use of other modules' internal packages.
 */
package dev.hotspare.testkit.architecture;
