import { Redis } from 'ioredis';
import { Valkey } from 'iovalkey';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { memoryTaskStore } from '../../src/tasks/memory-store.js';
import { fromIoredis, fromNodeRedis, type RedisConnection } from '../../src/tasks/redis/connection.js';
import { redisTaskStore } from '../../src/tasks/redis/store.js';
import type { NewTask } from '../../src/tasks/store.js';
import { type RedisServer, startRedisServer } from '../support/redis.js';
import { needs } from '../support/services.js';
import { describeTaskStore } from '../support/task-store-cases.js';

describeTaskStore('memoryTaskStore', {
  shared: false,
  open: async () => ({ store: memoryTaskStore(), close: async () => {} }),
});

const task = (overrides: Partial<NewTask> = {}): NewTask => ({
  taskId: crypto.randomUUID(),
  principal: 'alice',
  tool: 'search',
  args: {},
  capabilities: {},
  ttlMs: 60_000,
  pollIntervalMs: 500,
  rerunnable: false,
  ...overrides,
});

describe('memoryTaskStore with a clock of its own', () => {
  test('times, the TTL and the repeat window all follow the clock', async () => {
    const start = Date.parse('2026-07-28T00:00:00.000Z');
    let time = start;
    const store = memoryTaskStore({ now: () => time });
    const repeat = { key: 'digest', windowMs: 500 };
    const { task: first } = await store.create(task({ ttlMs: 1_000, repeat }));
    expect(first.createdAt).toBe('2026-07-28T00:00:00.000Z');
    time = start + 499;
    expect((await store.create(task({ repeat }))).task.taskId).toBe(first.taskId);
    expect((await store.claim(first.taskId, 'run-1'))?.lastUpdatedAt).toBe('2026-07-28T00:00:00.499Z');
    time = start + 500;
    const second = await store.create(task({ repeat }));
    expect(second.created).toBe(true);
    time = start + 999;
    expect(await store.get(first.taskId)).toBeDefined();
    time = start + 1_000;
    expect(await store.get(first.taskId)).toBeUndefined();
    expect(await store.get(second.task.taskId)).toBeDefined();
  });
});

interface Client {
  readonly connection: RedisConnection;
  close(): Promise<void>;
}

const CLIENTS: Record<string, (url: string) => Promise<Client>> = {
  ioredis: async (url) => {
    const client = new Redis(url);
    return {
      connection: fromIoredis(client),
      close: async () => {
        await client.quit();
      },
    };
  },
  'ioredis over RESP2': async (url) => {
    const client = new Redis(url, { protocol: 2 });
    return {
      connection: fromIoredis(client),
      close: async () => {
        await client.quit();
      },
    };
  },
  'node-redis': async (url) => {
    const client = createClient({ url });
    await client.connect();
    return { connection: fromNodeRedis(client), close: () => client.close() };
  },
  'node-redis over RESP3': async (url) => {
    const client = createClient({ url, RESP: 3 });
    await client.connect();
    return { connection: fromNodeRedis(client), close: () => client.close() };
  },
  iovalkey: async (url) => {
    const client = new Valkey(url);
    return {
      connection: fromIoredis(client),
      close: async () => {
        await client.quit();
      },
    };
  },
};

needs('redis-server').describe('on redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const connect = async (through: string): Promise<Client> => {
    const client = await (CLIENTS[through] as (url: string) => Promise<Client>)(server.url);
    return {
      connection: client.connection,
      close: async () => {
        await client.connection.close();
        await client.close();
      },
    };
  };

  for (const through of Object.keys(CLIENTS))
    describeTaskStore(`redisTaskStore through ${through}`, {
      shared: true,
      open: async () => {
        const client = await connect(through);
        return {
          store: redisTaskStore(client.connection, { prefix: `test:${through}:` }),
          close: client.close,
        };
      },
    });

  describe('redisTaskStore in Redis', () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect('ioredis');
    });
    afterAll(async () => {
      await client?.close();
    });
    const command = (...args: (string | number)[]) => client.connection.command(args);

    test("a task's keys carry its id as their hash tag; the TTL is Redis' own", async () => {
      const store = redisTaskStore(client.connection);
      const timed = await store.create(task({ ttlMs: 60_000, repeat: { key: 'a-digest', windowMs: 5_000 } }));
      const untimed = await store.create(task({ ttlMs: null }));
      const timedTtl = await command('PTTL', `toolprep:{${timed.task.taskId}}:task`);
      expect(timedTtl).toBeGreaterThan(55_000);
      expect(timedTtl).toBeLessThanOrEqual(60_000);
      expect(await command('PTTL', `toolprep:{${untimed.task.taskId}}:task`)).toBe(-1);
      expect(await command('GET', 'toolprep:{a-digest}:repeat')).toBe(timed.task.taskId);
      expect(await command('PTTL', 'toolprep:{a-digest}:repeat')).toBeLessThanOrEqual(5_000);
      expect(await command('TYPE', `toolprep:{${timed.task.taskId}}:task`)).toBe('hash');
    });

    test('a node that lost the scripts (SCRIPT FLUSH: a restart, a failover) is sent them again', async () => {
      const store = redisTaskStore(client.connection, { prefix: 'flush:' });
      const { task: created } = await store.create(task());
      await command('SCRIPT', 'FLUSH');
      expect(await store.claim(created.taskId, 'run-1')).toMatchObject({
        status: 'working',
        runner: 'run-1',
      });
      await command('SCRIPT', 'FLUSH');
      expect(await store.cancel(created.taskId)).toMatchObject({ status: 'cancelled' });
    });
  });
});
