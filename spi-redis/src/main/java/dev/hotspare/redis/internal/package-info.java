/**
 * How the Redis stores work, not part of the API (users construct the stores in {@code dev.hotspare.redis} and
 * never name these classes): the Lua scripts, read once from {@code dev/hotspare/redis/lua} in the jar and called
 * by SHA ({@link dev.hotspare.redis.internal.Scripts}, {@link dev.hotspare.redis.internal.LuaScript}); the key
 * layout, including the one KEYS order all room scripts share ({@link dev.hotspare.redis.internal.KeyLayout});
 * Lettuce access and failure translation ({@link dev.hotspare.redis.internal.RedisAccess}); and the batcher that
 * groups room reports ({@link dev.hotspare.redis.internal.RoomReportBatcher}). May change in any release.
 */
package dev.hotspare.redis.internal;
