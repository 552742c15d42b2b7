-- A room's usage: recorded only while the room is known and not terminating (storing it otherwise would leak a
-- member for a room that may never report). KEYS: the layout above with the room's hash at FIRST_ROOM;
-- ARGV: 1 room, 2 metric (cpu or mem), 3 value. Reply: 1 if recorded, else 0.
local status = redis.call('HGET', KEYS[FIRST_ROOM], 'status')
if status and status ~= 'terminating' then
  redis.call('ZADD', KEYS[METRIC[ARGV[2]]], ARGV[3], ARGV[1])
  return 1
end
return 0
