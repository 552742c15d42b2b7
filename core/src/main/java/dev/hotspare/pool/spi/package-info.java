/**
 * The ports a pool backend implements: {@link dev.hotspare.pool.spi.MemberDriver} (create, delete, set power,
 * assign; list and watch members) and {@link dev.hotspare.pool.spi.ClaimStore} (claims, assignment, release).
 * Every implementation passes the contract suites in hotspare-testkit.
 */
package dev.hotspare.pool.spi;
