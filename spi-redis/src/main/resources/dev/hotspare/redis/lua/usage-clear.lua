-- Usage removal. KEYS: 1 usage-metrics set; ARGV: 1 usage list key prefix (same hash tag, same slot).
for _, metric in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  redis.call('DEL', ARGV[1] .. metric)
end
return redis.call('DEL', KEYS[1])
