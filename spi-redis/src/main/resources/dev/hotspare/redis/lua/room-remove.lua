-- Room removal: every key and member of one room goes. KEYS: the layout above with the room's hash at
-- FIRST_ROOM; ARGV: 1 room. Reply: the counts afterwards, as HMGET returns them.
local roomKey, room = KEYS[FIRST_ROOM], ARGV[1]
local previous = redis.call('HGET', roomKey, 'status')
if previous then
  redis.call('DEL', roomKey)
  redis.call('ZREM', KEYS[STATUS[previous]], room)
  redis.call('HINCRBY', KEYS[COUNTS], previous, -1)
  redis.call('ZREM', KEYS[PINGS], room)
  redis.call('ZREM', KEYS[OCCUPIED], room)
  redis.call('ZREM', KEYS[METRIC.cpu], room)
  redis.call('ZREM', KEYS[METRIC.mem], room)
end
return redis.call('HMGET', KEYS[COUNTS], 'creating', 'ready', 'occupied', 'terminating')
