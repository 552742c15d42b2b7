-- Usage point. KEYS: 1 usage list, 2 usage-metrics set; ARGV: 1 metric, 2 point, 3 keep.
-- Appends and trims in one call, so no reader ever sees the list longer than keep.
redis.call('RPUSH', KEYS[1], ARGV[2])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[3]), -1)
redis.call('SADD', KEYS[2], ARGV[1])
return 1
