-- Lease renewal. KEYS[1] lease; ARGV[1] owner token, ARGV[2] ttl in ms.
-- Reply: the renewed lease value, or nil if the lease is gone or someone else's.
local lease = redis.call('GET', KEYS[1])
if not lease then
  return false
end
local token, acquired, owner = string.match(lease, '^(%d+) (%d+) %d+ (.+)$')
if owner ~= ARGV[1] then
  return false
end
local time = redis.call('TIME')
local now = math.floor((tonumber(time[1]) * 1000000 + tonumber(time[2])) / 1000)
local lifetime = string.format('%.0f', now - tonumber(acquired) + tonumber(ARGV[2]))
local renewed = token .. ' ' .. acquired .. ' ' .. lifetime .. ' ' .. owner
redis.call('SET', KEYS[1], renewed, 'PX', ARGV[2])
return renewed
