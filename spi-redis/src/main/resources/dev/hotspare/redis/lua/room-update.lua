-- Room reports: one call applies a batch of reports in order, exactly as if each were its own call run back to
-- back, under RoomProtocol's rules. KEYS: the layout above, one room hash per report. ARGV: six per report, in the
-- order of the room hashes: room, status, epoch seconds, nanos, epoch micros (the sorted sets' score), running
-- matches.
-- The counts are read once and kept in Lua while the batch runs; the counts hash is written once at the end (the
-- script is atomic, so nobody sees the counts hash and the sets disagree).
-- Reply, flat and all integers (cheap to build and to decode): the eight counts before the batch (creating, ready,
-- allocated, occupied, terminating, error, matches, slots), then four per report: outcome * 8 + previous status (0
-- none, 1..6 creating, ready, allocated, occupied, terminating, error); the status after (0 gone or unchanged by a
-- stale or rejected report, 1..6); the change in counted running matches; the change in allocated slots. The
-- client replays the count changes from these.
local statusCode = {creating = 1, ready = 2, allocated = 3, occupied = 4, terminating = 5, error = 6}
local outcomeCode = {APPLIED = 0, STALE = 8, REJECTED = 16}
local fields = {'creating', 'ready', 'allocated', 'occupied', 'terminating', 'error', 'matches', 'slots'}
local stored = redis.call('HMGET', KEYS[COUNTS], unpack(fields))
local reply = {}
local delta = {}
for i, field in ipairs(fields) do
  reply[i] = tonumber(stored[i]) or 0
  delta[field] = 0
end
local function counted(status, matches)
  if status and not NO_MATCHES[status] then return matches end
  return 0
end
for i = FIRST_ROOM, #KEYS do
  local roomKey, a = KEYS[i], (i - FIRST_ROOM) * 6
  local room, status = ARGV[a + 1], ARGV[a + 2]
  local seconds, nanos, micros, running = ARGV[a + 3], ARGV[a + 4], ARGV[a + 5], tonumber(ARGV[a + 6])
  local current = redis.call('HMGET', roomKey, 'status', 's', 'n', 'm', 'a', 'as', 'an')
  local previous = current[1]
  local before = tonumber(current[4]) or 0
  local allocatedBefore = tonumber(current[5]) or 0
  local outcome = 'APPLIED'
  if previous then
    local lastSeconds, lastNanos = tonumber(current[2]), tonumber(current[3])
    if tonumber(seconds) < lastSeconds or (tonumber(seconds) == lastSeconds and tonumber(nanos) < lastNanos) then
      redis.call('INCR', KEYS[STALE])
      outcome = 'STALE'
    elseif previous == 'terminating' and status ~= 'terminating' and status ~= 'terminated' then
      outcome = 'REJECTED'
    end
  end
  local after, dm, ds = 0, 0, 0
  if outcome ~= 'APPLIED' then
    -- nothing changes
  elseif status == 'terminated' then
    if previous then
      redis.call('DEL', roomKey)
      redis.call('ZREM', KEYS[STATUS[previous]], room)
      delta[previous] = delta[previous] - 1
      for _, key in ipairs({PINGS, OCCUPIED, METRIC.cpu, METRIC.mem, SLOTS, ALLOCATIONS}) do
        redis.call('ZREM', KEYS[key], room)
      end
      dm, ds = -counted(previous, before), -allocatedBefore
    end
  else
    -- Allocated slots become running matches as the count rises; creating, terminating and error drop them.
    local allocated = math.max(0, allocatedBefore - math.max(0, running - before))
    if status == 'creating' or status == 'terminating' or status == 'error' then
      allocated = 0
    elseif status == 'allocated' then
      allocated = math.max(1, allocated)
    end
    local reached = status
    if status == 'ready' and allocated > 0 then
      reached = 'allocated'
    end
    if previous ~= reached then
      if previous then
        redis.call('ZREM', KEYS[STATUS[previous]], room)
        delta[previous] = delta[previous] - 1
      end
      redis.call('ZADD', KEYS[STATUS[reached]], 0, room)
      delta[reached] = delta[reached] + 1
    end
    redis.call('HSET', roomKey, 'status', reached, 's', seconds, 'n', nanos, 'm', running, 'a', allocated)
    if allocated > 0 then
      if allocatedBefore == 0 or not current[6] then
        redis.call('HSET', roomKey, 'as', seconds, 'an', nanos)
        redis.call('ZADD', KEYS[ALLOCATIONS], micros, room)
      end
    else
      redis.call('HDEL', roomKey, 'as', 'an')
      redis.call('ZREM', KEYS[ALLOCATIONS], room)
    end
    if reached == 'occupied' then
      if previous ~= 'occupied' then
        redis.call('HSET', roomKey, 'os', seconds, 'on', nanos)
        redis.call('ZADD', KEYS[OCCUPIED], micros, room)
      end
    elseif previous == 'occupied' then
      redis.call('HDEL', roomKey, 'os', 'on')
      redis.call('ZREM', KEYS[OCCUPIED], room)
    end
    if reached == 'terminating' then
      -- Terminating rooms are never dead-by-ping nor offered by usage.
      redis.call('ZREM', KEYS[PINGS], room)
      redis.call('ZREM', KEYS[METRIC.cpu], room)
      redis.call('ZREM', KEYS[METRIC.mem], room)
    else
      redis.call('ZADD', KEYS[PINGS], micros, room)
    end
    if HOSTS_MATCHES[reached] then
      redis.call('ZADD', KEYS[SLOTS], -(running + allocated), room)
    else
      redis.call('ZREM', KEYS[SLOTS], room)
    end
    after = statusCode[reached]
    dm = counted(reached, running) - counted(previous, before)
    ds = allocated - allocatedBefore
  end
  delta.matches = delta.matches + dm
  delta.slots = delta.slots + ds
  local base = #fields + (i - FIRST_ROOM) * 4
  reply[base + 1] = outcomeCode[outcome] + (previous and statusCode[previous] or 0)
  reply[base + 2] = after
  reply[base + 3] = dm
  reply[base + 4] = ds
end
for field, change in pairs(delta) do
  if change ~= 0 then
    redis.call('HINCRBY', KEYS[COUNTS], field, change)
  end
end
return reply
