/**
 * hotspare's stores on Redis, through a Lettuce connection the caller owns: {@link dev.hotspare.redis.RedisLockStore}
 * (fenced leases), {@link dev.hotspare.redis.RedisRoomStatusStore} (room status, pings, counts, dead-room and
 * metric indexes, with batched reports) and {@link dev.hotspare.redis.RedisUsageHistory} (autoscaler points), all
 * with keys laid out by {@link dev.hotspare.redis.RedisKeys}. Each passes the testkit's contract suites against a
 * real {@code redis-server}.
 */
package dev.hotspare.redis;
