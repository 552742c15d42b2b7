-- Lock acquisition. KEYS[1] lease, KEYS[2] fencing counter; ARGV[1] owner token, ARGV[2] ttl in ms.
-- Reply: the lease value "<fencing token> <acquired ms> <lifetime ms> <owner token>", or nil if the lock is held.
-- Every number is built from TIME's digit strings and the caller's arguments: in Redis's Lua a number-to-string
-- conversion (string.format, tostring) costs about a microsecond, more than a redis.call.
local time = redis.call('TIME')
local seconds, micros = time[1], time[2]
micros = string.rep('0', 6 - #micros) .. micros
-- The clock term keeps tokens growing when a restart without persistence lost the counter:
-- token = max(last + 1, now in microseconds). Both are digit strings without leading zeros, so a longer
-- string is a larger number and equal lengths compare as strings.
local token = seconds .. micros
local last = redis.call('SET', KEYS[2], token, 'GET')
if last and (#last > #token or (#last == #token and last >= token)) then
  token = string.format('%.0f', tonumber(last) + 1)
  redis.call('SET', KEYS[2], token)
end
-- PX ttl expires the key at the server's clock + ttl, no earlier than acquired + ttl (acquired is
-- TIME rounded down to the ms); a refused attempt leaves the counter at the clock, which only raises
-- later tokens' floor.
local lease = token .. ' ' .. seconds .. string.sub(micros, 1, 3) .. ' ' .. ARGV[2] .. ' ' .. ARGV[1]
if not redis.call('SET', KEYS[1], lease, 'NX', 'PX', ARGV[2]) then
  return false
end
return lease
