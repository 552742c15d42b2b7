/**
 * Property-based testing on plain JUnit Jupiter: generators ({@link dev.hotspare.testkit.property.Gen}) built from
 * recorded random choices, a seeded and reproducible runner ({@link dev.hotspare.testkit.property.PropertyCheck},
 * {@link dev.hotspare.testkit.property.Property}) that prints the seed and shrinks a counter-example before
 * reporting it. hotspare's own properties run on it; the testkit's pool, fleet and rollout generators are built on
 * it for users' properties.
 */
package dev.hotspare.testkit.property;
