/**
 * hotspare's stores on PostgreSQL, through a {@link javax.sql.DataSource} the caller owns:
 * {@link dev.hotspare.postgres.PostgresClaimStore} (claims with store-side FIFO assignment and LISTEN/NOTIFY
 * wake-ups), {@link dev.hotspare.postgres.PostgresSchedulerStore}, {@link dev.hotspare.postgres.PostgresRolloutStore}
 * and {@link dev.hotspare.postgres.PostgresLockStore}, in a schema of their own that
 * {@link dev.hotspare.postgres.PostgresSchema} creates and upgrades with Flyway. Each passes the testkit's contract
 * suites against a real server.
 */
package dev.hotspare.postgres;
