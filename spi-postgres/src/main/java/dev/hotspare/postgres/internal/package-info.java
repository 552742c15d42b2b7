/**
 * How the PostgreSQL stores work, not part of the API (users construct the stores in {@code dev.hotspare.postgres}
 * and never name these classes): the JDBC plumbing every store shares — transactions, retries, the one decision
 * which SQL failures mean "unavailable" ({@link dev.hotspare.postgres.internal.Jdbc}) — and the LISTEN side of
 * claim watches ({@link dev.hotspare.postgres.internal.ClaimNotifications}). May change in any release.
 */
package dev.hotspare.postgres.internal;
