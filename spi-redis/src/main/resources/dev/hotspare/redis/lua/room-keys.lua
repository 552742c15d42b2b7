-- The KEYS layout of every room script, put in front of each of them. KeyLayout.roomScriptKeys builds the
-- scheduler's part in this order; see RedisKeys for what each key holds.
--
--   KEYS[1]       {prefix}:{<scheduler>}:counts           hash    creating/ready/occupied/terminating -> count
--   KEYS[2]       {prefix}:{<scheduler>}:pings            zset    non-terminating rooms by last ping (epoch micros)
--   KEYS[3]       {prefix}:{<scheduler>}:occupied         zset    occupied rooms by occupied-since (epoch micros)
--   KEYS[4]       {prefix}:{<scheduler>}:stale            string  count of stale reports
--   KEYS[5], [6]  {prefix}:{<scheduler>}:metric:cpu, mem  zset    non-terminating rooms by recorded usage
--   KEYS[7..10]   {prefix}:{<scheduler>}:rooms:<status>   zset    creating, ready, occupied, terminating
--   KEYS[11..]    {prefix}:{<scheduler>}:room:<room>      hash    one per room the call is about, in the order of
--                                                                 the room names in ARGV
--
-- Every key carries the scheduler's hash tag, so a call touches one Cluster slot. Room names come as arguments
-- next to their keys; only scheduler removal builds room keys here, from the names it finds in the status sets.
local COUNTS, PINGS, OCCUPIED, STALE = 1, 2, 3, 4
local METRIC = {cpu = 5, mem = 6}
local STATUS = {creating = 7, ready = 8, occupied = 9, terminating = 10}
local FIRST_ROOM = 11
