-- Allocation: hands out one free match slot, atomically, so concurrent callers never get the same one. The room
-- is the first of the slots set with fewer than maxMatches slots in use: the most used room with a free slot
-- (partly used rooms before empty ones, so empty rooms stay free to be scaled down), ties by name. KEYS: the
-- layout above without room hashes; ARGV: 1 the room-hash key prefix, 2 maxMatches, 3 epoch seconds, 4 nanos,
-- 5 epoch micros. Reply: the room, or false when no room has a free slot.
local max = tonumber(ARGV[2])
-- Scores are -(slots in use): a room with a free slot scores above -max.
local found = redis.call('ZRANGEBYSCORE', KEYS[SLOTS], '(' .. (-max), '+inf', 'LIMIT', 0, 1)
if #found == 0 then
  return false
end
local room = found[1]
local roomKey = ARGV[1] .. room
local current = redis.call('HMGET', roomKey, 'status', 'm', 'a')
local status = current[1]
local allocated = (tonumber(current[3]) or 0) + 1
redis.call('HSET', roomKey, 'a', allocated, 'as', ARGV[3], 'an', ARGV[4])
redis.call('ZADD', KEYS[ALLOCATIONS], ARGV[5], room)
redis.call('ZADD', KEYS[SLOTS], -((tonumber(current[2]) or 0) + allocated), room)
redis.call('HINCRBY', KEYS[COUNTS], 'slots', 1)
if status == 'ready' then
  redis.call('HSET', roomKey, 'status', 'allocated')
  redis.call('ZREM', KEYS[STATUS.ready], room)
  redis.call('ZADD', KEYS[STATUS.allocated], 0, room)
  redis.call('HINCRBY', KEYS[COUNTS], 'ready', -1)
  redis.call('HINCRBY', KEYS[COUNTS], 'allocated', 1)
end
return room
