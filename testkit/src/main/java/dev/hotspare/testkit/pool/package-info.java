/**
 * Test support for the pool feature: the contract suites every {@code MemberDriver} and {@code ClaimStore}
 * backend runs ({@link dev.hotspare.testkit.pool.MemberDriverContract},
 * {@link dev.hotspare.testkit.pool.ClaimStoreContract}), and generators
 * ({@link dev.hotspare.testkit.pool.PoolGenerators}, on {@link dev.hotspare.testkit.property.Gen}) for stating
 * properties about pools. A backend subclasses a suite in a few lines; the in-memory implementations run the same
 * suites.
 */
package dev.hotspare.testkit.pool;
