-- Lease release. KEYS[1] lease; ARGV[1] owner token. Reply: 1 if this owner's lease was deleted, else 0.
local lease = redis.call('GET', KEYS[1])
if lease and string.match(lease, '^%d+ %d+ %d+ (.+)$') == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
