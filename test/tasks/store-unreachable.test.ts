import { Redis } from 'ioredis';
import { Valkey } from 'iovalkey';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../../scripts/local-servers.mjs';
import { memoryTaskStore, TaskStoreUnavailableError } from '../../src/tasks/index.js';
import {
  fromIoredis,
  fromNodeRedis,
  type RedisConnection,
  redisTaskStore,
} from '../../src/tasks/redis/index.js';
import { type RedisServer, startRedisServer } from '../support/redis.js';
import { needs } from '../support/services.js';
import { newTask } from '../support/task-store-cases.js';

/**
 * The Redis task store when Redis does not answer: with the client pointed at a closed port as
 * docs/guide/tasks.md sets it up, with Redis stopped under a running store, and with a client that
 * fails at once (no offline queue). What a request waits on is answered within the store's
 * `timeoutMs` by a `TaskStoreUnavailableError` that says what to check and carries the Redis
 * client's error only as its cause; `health()` says the same for a readiness probe.
 */

const task = newTask;

/** A bound short enough for a test, long enough for a loopback Redis that is up. */
const TIMEOUT_MS = 300;
const UNAVAILABLE =
  /^\[toolprep\] the Redis task store (did not|could not) .+: check that Redis is running and reachable/;
/** What the Redis clients say of a connection that failed: never in what the store's error says. */
const CLIENT_TEXT =
  /ECONNREFUSED|max retries|MaxRetries|Connection is closed|Stream isn't writeable|ClientClosed|The client is closed|Socket closed/i;

/** Every request a client waits on, each expected to fail as unavailable. */
const requests = (store: ReturnType<typeof redisTaskStore>, taskId: string) => ({
  create: () => store.create(task({ repeat: { key: `digest-${taskId}`, windowMs: 1_000 } })),
  get: () => store.get(taskId),
  answer: () => store.answer(taskId, { 'input-1': { action: 'accept' } }),
  cancel: () => store.cancel(taskId),
  watch: () => store.watch([taskId], () => {}),
});

async function expectUnavailable(request: () => Promise<unknown>): Promise<TaskStoreUnavailableError> {
  const error = await request().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(TaskStoreUnavailableError);
  const unavailable = error as TaskStoreUnavailableError;
  expect(unavailable.message).toMatch(UNAVAILABLE);
  expect(unavailable.message).not.toMatch(CLIENT_TEXT);
  return unavailable;
}

test('the memory store is always healthy', async () => {
  expect(await memoryTaskStore().health?.()).toEqual({ ok: true });
});

describe('Redis client pointed at a closed port, as the guide sets it up', () => {
  const clients: Record<string, (url: string) => { connection: RedisConnection; close(): void }> = {
    ioredis: (url) => {
      const client = new Redis(url);
      client.on('error', () => {});
      return { connection: fromIoredis(client, { onerror: () => {} }), close: () => client.disconnect() };
    },
    iovalkey: (url) => {
      const client = new Valkey(url);
      client.on('error', () => {});
      return { connection: fromIoredis(client, { onerror: () => {} }), close: () => client.disconnect() };
    },
  };
  for (const [name, open] of Object.entries(clients))
    test(`${name}: every request fails after timeoutMs with what to check; health says why`, async () => {
      const { connection, close } = open(`redis://127.0.0.1:${await freePort()}`);
      // Nothing there to read persistence from: not what this test is about.
      const store = redisTaskStore(connection, { timeoutMs: TIMEOUT_MS, persistence: 'ignore' });
      try {
        for (const [method, request] of Object.entries(requests(store, crypto.randomUUID())))
          expect((await expectUnavailable(request)).message, method).toContain(`within ${TIMEOUT_MS} ms`);
        const health = await store.health?.();
        expect(health).toMatchObject({ ok: false, reason: expect.stringMatching(UNAVAILABLE) });
        expect(health).toMatchObject({ reason: expect.stringContaining('PING') });
        // A probe's own, shorter bound.
        expect(await store.health?.({ timeoutMs: 50 })).toMatchObject({
          ok: false,
          reason: expect.stringContaining('within 50 ms'),
        });
      } finally {
        close();
      }
    });
});

needs('redis-server').describe('Redis stopped under a running store', () => {
  const clients: Record<
    string,
    (url: string) => Promise<{ connection: RedisConnection; close(): Promise<void> }>
  > = {
    ioredis: async (url) => {
      const client = new Redis(url);
      client.on('error', () => {});
      return {
        connection: fromIoredis(client, { onerror: () => {} }),
        close: async () => client.disconnect(),
      };
    },
    'ioredis without an offline queue (fails at once)': async (url) => {
      const client = new Redis(url, { enableOfflineQueue: false });
      client.on('error', () => {});
      await new Promise((resolve) => client.once('ready', resolve));
      return {
        connection: fromIoredis(client, { onerror: () => {} }),
        close: async () => client.disconnect(),
      };
    },
    'node-redis': async (url) => {
      const client = createClient({ url });
      client.on('error', () => {});
      await client.connect();
      return {
        connection: fromNodeRedis(client, { onerror: () => {} }),
        close: async () => client.destroy(),
      };
    },
  };

  for (const [name, open] of Object.entries(clients))
    test(`${name}: healthy while Redis runs; once stopped, requests fail within timeoutMs and health says why`, async () => {
      const server = await startRedisServer();
      const { connection, close } = await open(server.url);
      const store = redisTaskStore(connection, { timeoutMs: TIMEOUT_MS, onerror: () => {} });
      try {
        expect(await store.health?.()).toEqual({ ok: true });
        const { task: made } = await store.create(task());
        expect(await store.get(made.taskId)).toMatchObject({ status: 'working' });

        await server.stop();
        for (const [method, request] of Object.entries(requests(store, made.taskId))) {
          const error = await expectUnavailable(request);
          // What the Redis client said is kept, for the server's log: as the cause, when there was one.
          if (error.message.includes('could not')) expect(error.cause, method).toBeInstanceOf(Error);
        }
        expect(await store.health?.()).toMatchObject({
          ok: false,
          reason: expect.stringMatching(UNAVAILABLE),
        });
      } finally {
        await close();
        await server.stop();
      }
    });
});

needs('redis-server').describe('a create that Redis carries out after its deadline', () => {
  let server: RedisServer;
  let client: Redis;
  let admin: Redis;
  beforeAll(async () => {
    server = await startRedisServer();
    client = new Redis(server.url);
    admin = new Redis(server.url);
  });
  afterAll(async () => {
    client?.disconnect();
    admin?.disconnect();
    await server?.stop();
  });

  test('is undone: nobody was told its id, and the next call with the same arguments makes a task', async () => {
    const store = redisTaskStore(fromIoredis(client), { prefix: 'late:', timeoutMs: TIMEOUT_MS });
    const repeat = { key: 'late-digest', windowMs: 60_000 };
    const first = task({ repeat });
    // Redis holds every write (the create's script) until the pause ends: the create outlives its bound.
    await admin.call('CLIENT', 'PAUSE', String(TIMEOUT_MS * 4), 'WRITE');
    await expectUnavailable(() => store.create(first));
    // After the pause the create is carried out (the repeat key maps to it), then deleted.
    await eventually(async () => (await admin.get('late:{late-digest}:repeat')) === first.taskId);
    await eventually(async () => (await admin.exists(`late:{${first.taskId}}:task`)) === 0);
    const again = await store.create(task({ repeat }));
    expect(again.created).toBe(true);
    expect(again.task.taskId).not.toBe(first.taskId);
  });
});

/** Waits until `condition` holds (a state another connection reaches), failing after 10 s. */
async function eventually(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
