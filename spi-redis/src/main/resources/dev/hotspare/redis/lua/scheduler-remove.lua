-- Scheduler removal: every room hash and every key of the scheduler goes. KEYS: the layout above without room
-- hashes; ARGV: 1 the room-hash key prefix. Room hashes share the scheduler's hash tag, so the keys built here
-- live in the same slot as KEYS. Reply: the number of scheduler keys deleted.
for i = STATUS.creating, STATUS.error do
  for _, room in ipairs(redis.call('ZRANGE', KEYS[i], 0, -1)) do
    redis.call('DEL', ARGV[1] .. room)
  end
end
return redis.call('DEL', unpack(KEYS))
