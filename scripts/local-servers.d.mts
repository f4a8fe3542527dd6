export const REDIS_SERVER: string;
export const redisServerInstalled: boolean;
export function freePort(): Promise<number>;
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the server (SIGTERM: its append-only file is written out) and keeps its folder. */
  halt(): Promise<void>;
  /** Starts it again (after `halt`, or stopping it first) on the same port and folder: what it kept, it has. */
  restart(): Promise<void>;
  /** Stops it and removes its folder. */
  stop(): Promise<void>;
}
export function startRedisServer(options?: {
  /** Keep an append-only file (default true); false: a Redis that forgets everything on restart. */
  readonly appendonly?: boolean;
  /** More redis-server options, e.g. `['--rename-command', 'CONFIG', '']`. */
  readonly args?: readonly string[];
}): Promise<RedisServer>;
