-- Allocation timeout: takes back the slots of every room whose last allocation is at or before the cutoff; an
-- allocated room is ready again. KEYS: the layout above without room hashes; ARGV: 1 the room-hash key prefix,
-- 2 the cutoff in epoch micros. Reply: the rooms, by last allocation.
local expired = redis.call('ZRANGEBYSCORE', KEYS[ALLOCATIONS], '-inf', ARGV[2])
for _, room in ipairs(expired) do
  local roomKey = ARGV[1] .. room
  local current = redis.call('HMGET', roomKey, 'status', 'm', 'a')
  local status = current[1]
  redis.call('ZREM', KEYS[ALLOCATIONS], room)
  -- An index entry without its room has nothing else to take back.
  if status then
    local allocated = tonumber(current[3]) or 0
    redis.call('HSET', roomKey, 'a', 0)
    redis.call('HDEL', roomKey, 'as', 'an')
    if allocated ~= 0 then
      redis.call('HINCRBY', KEYS[COUNTS], 'slots', -allocated)
    end
    if HOSTS_MATCHES[status] then
      redis.call('ZADD', KEYS[SLOTS], -(tonumber(current[2]) or 0), room)
    end
    if status == 'allocated' then
      redis.call('HSET', roomKey, 'status', 'ready')
      redis.call('ZREM', KEYS[STATUS.allocated], room)
      redis.call('ZADD', KEYS[STATUS.ready], 0, room)
      redis.call('HINCRBY', KEYS[COUNTS], 'allocated', -1)
      redis.call('HINCRBY', KEYS[COUNTS], 'ready', 1)
    end
  end
end
return expired
