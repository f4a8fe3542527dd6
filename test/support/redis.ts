/**
 * A real Redis for the tests of the Redis task store and executor: Debian's redis-server, one per
 * test file, on a free loopback port, its append-only file in a temporary folder (scripts/local-servers.mjs). Without
 * it (`apt-get install redis-server`) those tests are skipped, or fail under CI: `needs('redis-server')`
 * (test/support/services.ts) decides.
 */
export { type RedisServer, startRedisServer } from '../../scripts/local-servers.mjs';
