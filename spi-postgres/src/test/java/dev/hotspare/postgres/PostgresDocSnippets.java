package dev.hotspare.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hotspare.fleet.lock.LockManager;
import dev.hotspare.fleet.lock.spi.LockStore;
import dev.hotspare.fleet.spi.SchedulerStore;
import dev.hotspare.pool.PoolSpec;
import dev.hotspare.pool.runtime.PoolController;
import dev.hotspare.pool.spi.ClaimStore;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.rollout.spi.RolloutStore;
import dev.hotspare.time.TaskScheduler;

import javax.sql.DataSource;

/** The PostgreSQL snippets of README.md and docs/postgres.md; compiled, not run (the contract tests run the stores). */
final class PostgresDocSnippets {

    private PostgresDocSnippets() {
    }

    static void readme(HikariConfig config) {
        // snippet: README.md#2
        DataSource ds = new HikariDataSource(config);          // any pool
        PostgresSchema.migrate(ds);                            // Flyway, own schema + history table; safe concurrently
        ClaimStore claims = new PostgresClaimStore(ds);        // one member per claim enforced by a DB constraint
        SchedulerStore schedulers = new PostgresSchedulerStore(ds);
        RolloutStore rollouts = new PostgresRolloutStore(ds);
        LockStore locks = new PostgresLockStore(ds);           // database clock, durable fencing tokens
        // end snippet
    }

    static void postgresMd(String secret, PoolSpec spec, MemberDriver driver, TaskScheduler scheduler) {
        // snippet: docs/postgres.md
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://db:5432/fleet");
        config.setUsername("hotspare");
        config.setPassword(secret);
        DataSource dataSource = new HikariDataSource(config);

        PostgresSchema.migrate(dataSource);                 // at every worker's start; safe concurrently

        ClaimStore claims = new PostgresClaimStore(dataSource);
        SchedulerStore schedulers = new PostgresSchedulerStore(dataSource);
        RolloutStore rollouts = new PostgresRolloutStore(dataSource);
        LockStore locks = new PostgresLockStore(dataSource);

        PoolController controller = PoolController.builder(spec).memberDriver(driver).claimStore(claims).scheduler(scheduler).build();
        LockManager lockManager = LockManager.builder().lockStore(locks).scheduler(scheduler).build();
        // end snippet
    }
}
