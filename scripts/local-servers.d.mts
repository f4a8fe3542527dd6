export const REDIS_SERVER: string;
export const redisServerInstalled: boolean;
export function freePort(): Promise<number>;
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  stop(): Promise<void>;
}
export function startRedisServer(): Promise<RedisServer>;
