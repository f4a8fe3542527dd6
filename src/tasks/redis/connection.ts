/**
 * The few things the Redis task store and executor need of a Redis client, so that the runtime
 * takes the user's own client (ioredis, iovalkey, node-redis) and depends on none. The clients are
 * typed by the methods used, never imported.
 */

import { failureOf, logError, type OnError } from '../../shared/run/on-error.js';
import type { TaskReporting } from '../store.js';

export interface RedisConnection {
  /** One command, e.g. `['EVALSHA', sha, '1', key, arg]`; resolves with the reply (see `normaliseReply`). */
  command(args: readonly (string | number)[]): Promise<unknown>;
  /** A blocking command (`XREADGROUP … BLOCK …`) on a connection of its own, so it never holds up `command`. */
  blocking(args: readonly (string | number)[]): Promise<unknown>;
  /** Subscribes to a channel; resolves once subscribed; returns the unsubscribe. */
  subscribe(channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>>;
  /** Closes the connections the adapter made (never the client it was given). */
  close(): Promise<void>;
}

/** What `fromIoredis` uses of an ioredis or iovalkey client (the two share their API). */
export interface IoredisClient {
  call(command: string, ...args: (string | number)[]): Promise<unknown>;
  duplicate(): IoredisClient;
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  quit(): Promise<unknown>;
}

/** What `fromNodeRedis` uses of a node-redis client (`redis` v4 to v6). */
export interface NodeRedisClient {
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(): NodeRedisClient;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  /** v5 and later; v4 has only `quit`. */
  close?(): Promise<unknown>;
  quit?(): Promise<unknown>;
}

/**
 * An ioredis or iovalkey client: duplicates of it carry the blocking reads and the subscriptions.
 * Their connection errors go to `onerror` (ioredis would print those of a client nobody listens to).
 */
export function fromIoredis(client: IoredisClient, options: TaskReporting = {}): RedisConnection {
  const onerror = options.onerror ?? logError;
  const duplicate = (): IoredisClient => {
    const made = client.duplicate();
    made.on('error', (error) => onerror(failureOf('Redis connection error', error)));
    return made;
  };
  let subscriber: IoredisClient | undefined;
  const hub = channelHub({
    subscribe: async (channel, deliver) => {
      if (subscriber === undefined) {
        subscriber = duplicate();
        subscriber.on('message', (from, message) => deliver(from, message));
      }
      await subscriber.subscribe(channel);
    },
    unsubscribe: async (channel) => {
      await subscriber?.unsubscribe(channel);
    },
  });
  const pool = blockingPool(
    async () => duplicate(),
    (made) => made.quit(),
  );
  return {
    command: async (args) => normaliseReply(await client.call(...ioredisArgs(args))),
    blocking: (args) => pool.use(async (made) => normaliseReply(await made.call(...ioredisArgs(args)))),
    subscribe: hub.subscribe,
    close: async () => {
      await Promise.all([pool.close(), hub.close()]);
      await subscriber?.quit();
    },
  };
}

/**
 * A node-redis client (connected): duplicates of it, connected here, carry the blocking reads and
 * the subscriptions. Their connection errors go to `onerror`.
 */
export function fromNodeRedis(client: NodeRedisClient, options: TaskReporting = {}): RedisConnection {
  const onerror = options.onerror ?? logError;
  let subscriber: Promise<NodeRedisClient> | undefined;
  const hub = channelHub({
    subscribe: async (channel, deliver) => {
      subscriber ??= connectedDuplicate(client, onerror);
      await (await subscriber).subscribe(channel, (message) => deliver(channel, message));
    },
    unsubscribe: async (channel) => {
      await (await subscriber)?.unsubscribe(channel);
    },
  });
  const pool = blockingPool(() => connectedDuplicate(client, onerror), closeNodeRedis);
  return {
    command: async (args) => normaliseReply(await client.sendCommand(args.map(String))),
    blocking: (args) =>
      pool.use(async (duplicate) => normaliseReply(await duplicate.sendCommand(args.map(String)))),
    subscribe: hub.subscribe,
    close: async () => {
      await Promise.all([pool.close(), hub.close()]);
      if (subscriber !== undefined) await closeNodeRedis(await subscriber);
    },
  };
}

function ioredisArgs(args: readonly (string | number)[]): [string, ...(string | number)[]] {
  const [command, ...rest] = args;
  return [String(command), ...rest];
}

async function connectedDuplicate(client: NodeRedisClient, onerror: OnError): Promise<NodeRedisClient> {
  const duplicate = client.duplicate();
  // node-redis throws an 'error' event nobody listens to: a dropped connection would end the process.
  duplicate.on('error', (error) => onerror(failureOf('Redis connection error', error)));
  await duplicate.connect();
  return duplicate;
}

async function closeNodeRedis(client: NodeRedisClient): Promise<void> {
  await (client.close ?? client.quit)?.call(client);
}

/**
 * Replies as plain data, whichever client and protocol: strings (never Buffers), numbers, arrays
 * and null. A RESP3 map (a Map, or a plain object) becomes an array of `[key, value]` pairs, a set
 * an array; a RESP3 boolean becomes what RESP2 gives for a Lua boolean (1, or null).
 */
function normaliseReply(reply: unknown): unknown {
  if (reply === null || reply === undefined || reply === false) return null;
  if (reply === true) return 1;
  if (typeof reply === 'string' || typeof reply === 'number') return reply;
  if (typeof reply === 'bigint') return String(reply);
  if (reply instanceof Uint8Array) return new TextDecoder().decode(reply);
  if (Array.isArray(reply)) return reply.map(normaliseReply);
  if (reply instanceof Set) return [...reply].map(normaliseReply);
  const entries = reply instanceof Map ? [...reply.entries()] : Object.entries(reply);
  return entries.map(([key, value]) => [normaliseReply(key), normaliseReply(value)]);
}

/**
 * A map reply as `[key, value]` pairs, in either shape it comes: a flat `[key, value, …]` array
 * (RESP2, and ioredis' RESP3 "legacy" mapping) or pairs (a RESP3 map through `normaliseReply`).
 * Keys are strings, so an array whose first item is an array holds pairs.
 */
export function replyPairs(reply: unknown): (readonly [string, unknown])[] {
  if (!Array.isArray(reply)) return [];
  if (Array.isArray(reply[0])) return reply.map((pair: unknown[]) => [String(pair[0]), pair[1]] as const);
  const pairs: (readonly [string, unknown])[] = [];
  for (let index = 0; index + 1 < reply.length; index += 2)
    pairs.push([String(reply[index]), reply[index + 1]]);
  return pairs;
}

interface RawSubscriber {
  /** Subscribes the client's subscriber connection to `channel`; messages go to `deliver`. */
  subscribe(channel: string, deliver: (channel: string, message: string) => void): Promise<void>;
  unsubscribe(channel: string): Promise<void>;
}

/**
 * Many listeners over one subscriber connection: a channel is subscribed for its first listener
 * and unsubscribed after its last. (Un)subscribing runs one at a time, so an unsubscribe never
 * overtakes a later subscribe to the same channel.
 */
function channelHub(raw: RawSubscriber) {
  const listeners = new Map<string, Set<(message: string) => void>>();
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(step: () => Promise<T>): Promise<T> => {
    const done = queue.then(step);
    queue = done.catch(() => undefined);
    return done;
  };
  const deliver = (channel: string, message: string): void => {
    for (const listener of listeners.get(channel) ?? []) listener(message);
  };
  const leave = (channel: string, listener: (message: string) => void): Promise<void> =>
    inTurn(async () => {
      const channelListeners = listeners.get(channel);
      if (channelListeners === undefined || !channelListeners.delete(listener)) return;
      if (channelListeners.size > 0) return;
      listeners.delete(channel);
      await raw.unsubscribe(channel);
    });
  return {
    subscribe: (channel: string, onMessage: (message: string) => void): Promise<() => Promise<void>> => {
      // A wrapper of its own: the same function subscribed twice is two listeners, left one by one.
      const listener = (message: string): void => onMessage(message);
      return inTurn(async () => {
        const channelListeners = listeners.get(channel);
        if (channelListeners !== undefined) channelListeners.add(listener);
        else {
          listeners.set(channel, new Set([listener]));
          try {
            await raw.subscribe(channel, deliver);
          } catch (error) {
            listeners.delete(channel);
            throw error;
          }
        }
        return () => leave(channel, listener);
      });
    },
    close: (): Promise<void> =>
      inTurn(async () => {
        const channels = [...listeners.keys()];
        listeners.clear();
        await Promise.all(channels.map((channel) => raw.unsubscribe(channel)));
      }),
  };
}

/**
 * Connections for blocking commands, made as they are needed: each carries one command at a time,
 * so two executors' reads on one adapter never wait for each other.
 */
function blockingPool<Client>(open: () => Promise<Client>, close: (client: Client) => Promise<unknown>) {
  const idle: Client[] = [];
  const all: Promise<Client>[] = [];
  let closed = false;
  return {
    use: async <T>(command: (client: Client) => Promise<T>): Promise<T> => {
      if (closed) throw new Error('[toolprep] the Redis connection is closed');
      let client = idle.pop();
      if (client === undefined) {
        const opening = open();
        all.push(opening);
        client = await opening;
      }
      try {
        return await command(client);
      } finally {
        idle.push(client);
      }
    },
    close: async (): Promise<void> => {
      closed = true;
      await Promise.all(all.map(async (opening) => close(await opening)));
    },
  };
}
