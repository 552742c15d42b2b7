package dev.hotspare.fleetserver;

import dev.hotspare.fleet.runtime.FleetSettings;
import dev.hotspare.pool.spi.MemberDriver;
import dev.hotspare.postgres.PostgresSchedulerStore;
import dev.hotspare.redis.RedisLockStore;
import dev.hotspare.redis.RedisRoomStatusStore;
import dev.hotspare.redis.RedisUsageHistory;
import dev.hotspare.time.TaskScheduler;
import io.lettuce.core.api.StatefulRedisConnection;

import javax.sql.DataSource;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/** The snippet of docs/fleet-service.md; compiled, not run (the end-to-end tests run the service on these stores). */
final class FleetServiceDocSnippets {

    private FleetServiceDocSnippets() {
    }

    static void embed(DataSource dataSource, StatefulRedisConnection<String, String> connection, MemberDriver podMemberDriver) {
        // snippet: docs/fleet-service.md
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(2);
        FleetService service = FleetService.builder(TaskScheduler.system(executor, Clock.systemUTC()))
                .schedulerStore(new PostgresSchedulerStore(dataSource))      // every SPI defaults to in memory
                .lockStore(new RedisLockStore(connection))
                .roomStatusStore(new RedisRoomStatusStore(connection))
                .usageHistory(new RedisUsageHistory(connection))
                .memberDriver(podMemberDriver)
                .healthCheck("redis", () -> connection.sync().ping())
                .bind(new InetSocketAddress("0.0.0.0", 8080))
                .fleetSettings(FleetSettings.builder().instanceId("fleet-a").build())   // the fleet's own settings, as Fleet's
                .build()
                .start();
        // end snippet
    }
}
