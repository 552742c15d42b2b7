package dev.hotspare.redis.internal;

/**
 * Every Lua script of the Redis stores, read from {@code src/main/resources/dev/hotspare/redis/lua} once, when the
 * first store is used. The room scripts share one KEYS layout, {@code room-keys.lua}, which is put in front of
 * each of them and which {@link KeyLayout#roomScriptKeys} builds.
 */
public final class Scripts {

    /** The prelude naming the room scripts' KEYS. */
    private static final String ROOM_KEYS = "room-keys.lua";

    /** Applies a batch of room reports in order (see {@link RoomReportBatcher}). */
    public static final LuaScript ROOM_UPDATE = LuaScript.load("room update", ROOM_KEYS, "room-update.lua");
    /** Removes one room and returns the counts. */
    public static final LuaScript ROOM_REMOVE = LuaScript.load("room remove", ROOM_KEYS, "room-remove.lua");
    /** Records a room's cpu or mem usage if the room is known and not terminating. */
    public static final LuaScript ROOM_METRIC = LuaScript.load("room metric", ROOM_KEYS, "room-metric.lua");
    /** Hands out one free match slot, most used room first. */
    public static final LuaScript ROOM_ALLOCATE = LuaScript.load("room allocate", ROOM_KEYS, "room-allocate.lua");
    /** Takes back the slots of rooms allocated at or before a cutoff. */
    public static final LuaScript ROOM_EXPIRE = LuaScript.load("room allocation expiry", ROOM_KEYS, "room-expire.lua");
    /** Removes a scheduler's rooms and keys. */
    public static final LuaScript SCHEDULER_REMOVE = LuaScript.load("scheduler remove", ROOM_KEYS, "scheduler-remove.lua");

    /** Acquires a lease with a fencing token. */
    public static final LuaScript LOCK_ACQUIRE = LuaScript.load("acquire", "lock-acquire.lua");
    /** Renews a lease its owner still holds. */
    public static final LuaScript LOCK_RENEW = LuaScript.load("renew", "lock-renew.lua");
    /** Releases a lease its owner still holds. */
    public static final LuaScript LOCK_RELEASE = LuaScript.load("release", "lock-release.lua");

    /** Appends a usage point and trims the list. */
    public static final LuaScript USAGE_RECORD = LuaScript.load("usage record", "usage-record.lua");
    /** Deletes every usage list of a scheduler. */
    public static final LuaScript USAGE_CLEAR = LuaScript.load("usage clear", "usage-clear.lua");

    private Scripts() {
    }
}
