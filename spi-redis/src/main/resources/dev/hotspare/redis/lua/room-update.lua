-- Room reports: one call applies a batch of reports in order, exactly as if each were its own call run back to
-- back. KEYS: the layout above, one room hash per report. ARGV: five per report, in the order of the room
-- hashes: room, status, epoch seconds, nanos, epoch micros (the sorted sets' score).
-- The counts are read once and kept in Lua while the batch runs; the counts hash is written once at the end (the
-- script is atomic, so nobody sees the counts hash and the status sets disagree).
-- Reply, flat and all integers (cheap to build and to decode): the four counts before the batch, then one code
-- per report, outcome * 8 + previous status (0 none, 1..4 creating, ready, occupied, terminating). The client
-- replays the count changes, which follow from outcome, previous and new status alone.
local statusCode = {creating = 1, ready = 2, occupied = 3, terminating = 4}
local outcomeCode = {APPLIED = 0, STALE = 8, REJECTED = 16}
local stored = redis.call('HMGET', KEYS[COUNTS], 'creating', 'ready', 'occupied', 'terminating')
local reply = {tonumber(stored[1]) or 0, tonumber(stored[2]) or 0, tonumber(stored[3]) or 0, tonumber(stored[4]) or 0}
local delta = {creating = 0, ready = 0, occupied = 0, terminating = 0}
for i = FIRST_ROOM, #KEYS do
  local roomKey, a = KEYS[i], (i - FIRST_ROOM) * 5
  local room, status = ARGV[a + 1], ARGV[a + 2]
  local current = redis.call('HMGET', roomKey, 'status', 's', 'n')
  local previous = current[1]
  local outcome = 'APPLIED'
  if previous then
    local seconds, nanos = tonumber(ARGV[a + 3]), tonumber(ARGV[a + 4])
    local lastSeconds, lastNanos = tonumber(current[2]), tonumber(current[3])
    if seconds < lastSeconds or (seconds == lastSeconds and nanos < lastNanos) then
      redis.call('INCR', KEYS[STALE])
      outcome = 'STALE'
    elseif previous == 'terminating' and status ~= 'terminating' and status ~= 'terminated' then
      outcome = 'REJECTED'
    end
  end
  if outcome ~= 'APPLIED' then
    -- nothing changes
  elseif status == 'terminated' then
    if previous then
      redis.call('DEL', roomKey)
      redis.call('ZREM', KEYS[STATUS[previous]], room)
      delta[previous] = delta[previous] - 1
      redis.call('ZREM', KEYS[PINGS], room)
      redis.call('ZREM', KEYS[OCCUPIED], room)
      redis.call('ZREM', KEYS[METRIC.cpu], room)
      redis.call('ZREM', KEYS[METRIC.mem], room)
    end
  elseif previous == status then
    -- A keep-alive: only the last ping moves.
    redis.call('HSET', roomKey, 's', ARGV[a + 3], 'n', ARGV[a + 4])
    if status ~= 'terminating' then
      redis.call('ZADD', KEYS[PINGS], ARGV[a + 5], room)
    end
  else
    if previous then
      redis.call('ZREM', KEYS[STATUS[previous]], room)
      delta[previous] = delta[previous] - 1
    end
    redis.call('ZADD', KEYS[STATUS[status]], 0, room)
    delta[status] = delta[status] + 1
    if status == 'occupied' then
      redis.call('HSET', roomKey, 'status', status, 's', ARGV[a + 3], 'n', ARGV[a + 4], 'os', ARGV[a + 3], 'on', ARGV[a + 4])
      redis.call('ZADD', KEYS[OCCUPIED], ARGV[a + 5], room)
    else
      redis.call('HSET', roomKey, 'status', status, 's', ARGV[a + 3], 'n', ARGV[a + 4])
      if previous == 'occupied' then
        redis.call('HDEL', roomKey, 'os', 'on')
        redis.call('ZREM', KEYS[OCCUPIED], room)
      end
    end
    if status == 'terminating' then
      -- Terminating rooms are never dead-by-ping nor offered by usage.
      redis.call('ZREM', KEYS[PINGS], room)
      redis.call('ZREM', KEYS[METRIC.cpu], room)
      redis.call('ZREM', KEYS[METRIC.mem], room)
    else
      redis.call('ZADD', KEYS[PINGS], ARGV[a + 5], room)
    end
  end
  reply[5 + i - FIRST_ROOM] = outcomeCode[outcome] + (previous and statusCode[previous] or 0)
end
for status, change in pairs(delta) do
  if change ~= 0 then
    redis.call('HINCRBY', KEYS[COUNTS], status, change)
  end
end
return reply
