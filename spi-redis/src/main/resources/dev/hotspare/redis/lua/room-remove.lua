-- Room removal: every key and member of one room goes. KEYS: the layout above with the room's hash at
-- FIRST_ROOM; ARGV: 1 room. Reply: the counts afterwards, as HMGET returns them (creating, ready, allocated,
-- occupied, terminating, error, matches, slots).
local roomKey, room = KEYS[FIRST_ROOM], ARGV[1]
local current = redis.call('HMGET', roomKey, 'status', 'm', 'a')
local previous = current[1]
if previous then
  redis.call('DEL', roomKey)
  redis.call('ZREM', KEYS[STATUS[previous]], room)
  redis.call('HINCRBY', KEYS[COUNTS], previous, -1)
  if not NO_MATCHES[previous] and (tonumber(current[2]) or 0) ~= 0 then
    redis.call('HINCRBY', KEYS[COUNTS], 'matches', -tonumber(current[2]))
  end
  if (tonumber(current[3]) or 0) ~= 0 then
    redis.call('HINCRBY', KEYS[COUNTS], 'slots', -tonumber(current[3]))
  end
  for _, key in ipairs({PINGS, OCCUPIED, METRIC.cpu, METRIC.mem, SLOTS, ALLOCATIONS}) do
    redis.call('ZREM', KEYS[key], room)
  end
end
return redis.call('HMGET', KEYS[COUNTS], 'creating', 'ready', 'allocated', 'occupied', 'terminating', 'error', 'matches',
  'slots')
