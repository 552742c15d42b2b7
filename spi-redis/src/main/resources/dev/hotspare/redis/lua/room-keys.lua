-- The KEYS layout of every room script, put in front of each of them. KeyLayout.roomScriptKeys builds the
-- scheduler's part in this order; see RedisKeys for what each key holds.
--
--   KEYS[1]       {prefix}:{<scheduler>}:counts           hash    creating/ready/allocated/occupied/terminating/
--                                                                 error -> rooms; matches -> running matches of
--                                                                 rooms neither terminating nor in error; slots ->
--                                                                 allocated slots
--   KEYS[2]       {prefix}:{<scheduler>}:pings            zset    non-terminating rooms by last ping (epoch micros)
--   KEYS[3]       {prefix}:{<scheduler>}:occupied         zset    occupied rooms by occupied-since (epoch micros)
--   KEYS[4]       {prefix}:{<scheduler>}:stale            string  count of stale reports
--   KEYS[5], [6]  {prefix}:{<scheduler>}:metric:cpu, mem  zset    non-terminating rooms by recorded usage
--   KEYS[7]       {prefix}:{<scheduler>}:slots            zset    rooms that host matches (ready, allocated,
--                                                                 occupied) by -(running + allocated slots), so the
--                                                                 most used come first, ties by name
--   KEYS[8]       {prefix}:{<scheduler>}:allocations      zset    rooms with allocated slots by the last allocation
--                                                                 (epoch micros)
--   KEYS[9..14]   {prefix}:{<scheduler>}:rooms:<status>   zset    creating, ready, allocated, occupied, terminating,
--                                                                 error
--   KEYS[15..]    {prefix}:{<scheduler>}:room:<room>      hash    one per room the call is about, in the order of
--                                                                 the room names in ARGV
--
-- A room hash holds: status; s, n (last report: epoch seconds, nanos); os, on (occupied since); m (running
-- matches); a (allocated slots); as, an (last allocation).
--
-- Every key carries the scheduler's hash tag, so a call touches one Cluster slot. Room names come as arguments
-- next to their keys; only scheduler removal, allocation and allocation expiry build room keys here, from the
-- names they find in the sets (same hash tag, same slot).
local COUNTS, PINGS, OCCUPIED, STALE = 1, 2, 3, 4
local METRIC = {cpu = 5, mem = 6}
local SLOTS, ALLOCATIONS = 7, 8
local STATUS = {creating = 9, ready = 10, allocated = 11, occupied = 12, terminating = 13, error = 14}
local FIRST_ROOM = 15
-- Statuses whose rooms' running matches count nowhere.
local NO_MATCHES = {terminating = true, error = true}
local HOSTS_MATCHES = {ready = true, allocated = true, occupied = true}
