import { REDIS_SERVER, redisServerInstalled } from '../../scripts/local-servers.mjs';

/**
 * A real Redis for the tests of the Redis task store and executor: Debian's redis-server, one per
 * test file, on a free loopback port, keeping nothing on disk (scripts/local-servers.mjs). Without
 * it (`apt-get install redis-server`) those tests are skipped, and the file says so.
 */
export {
  REDIS_SERVER,
  type RedisServer,
  redisServerInstalled,
  startRedisServer,
} from '../../scripts/local-servers.mjs';

if (!redisServerInstalled)
  console.warn(`[toolprep] the Redis tests are skipped: no ${REDIS_SERVER} (apt-get install redis-server)`);
