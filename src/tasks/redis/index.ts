/**
 * `toolprep/tasks/redis`: MCP tasks kept in Redis (or Valkey) and run on Redis Streams, through
 * the Redis client the server already has (`ioredis`, `iovalkey` or `redis`): toolprep itself
 * depends on none of them.
 */
export { fromIoredis, fromNodeRedis, type RedisConnection } from './connection.js';
export { redisTaskStore } from './store.js';
export { redisStreamsExecutor } from './streams-executor.js';
