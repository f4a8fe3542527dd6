import type { AddressInfo } from 'node:net';
import { prepareToolSet } from '@toolprep/build';
import { Redis, type RedisOptions } from 'ioredis';
import { defineTool } from 'toolprep';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { requestHeaders, requestMeta } from '../../scripts/mcp-2026-wire.mjs';
import { createToolRuntime } from '../../src/runtime/index.js';
import type { McpToolContext } from '../../src/surfaces/mcp/index.js';
import { serveHttp } from '../../src/surfaces/mcp/index.js';
import { fromIoredis, redisStreamsExecutor, redisTaskStore } from '../../src/tasks/redis/index.js';
import { type RedisServer, startRedisServer } from '../support/redis.js';
import { needs } from '../support/services.js';
import { DECLARING } from '../support/task-scenarios.js';

/**
 * A Redis outage longer than the executor's lease (issue 37, decision 0052), on a real
 * redis-server with its append-only file: stopped under a serving server with tasks in flight,
 * new calls made during it, then started again on the same port and folder. With a fail-fast
 * ioredis client (`commandTimeout: 2000`) and with the client as docs/guide/tasks.md sets it up:
 * every task a caller was given ends once, completed with its own result; none is failed without
 * having run; none runs twice; every request during the outage is answered "task store
 * unavailable" (503) rather than left hanging (the client's own timeout is the bound).
 */

const LEASE_MS = 1_000;
const STORE_TIMEOUT_MS = 1_000;
/** The client's own bound on one request: the store's deadline and a margin, never a hang. */
const CLIENT_TIMEOUT_MS = STORE_TIMEOUT_MS + 4_000;

/** How often each task's handler ran, by task id. */
const runs = new Map<string, number>();

/** Not idempotent: a task whose node stopped is failed, never run again; so a second run is a defect. */
const tools = {
  sendInvoice: defineTool({
    description: 'Send an invoice (slow; not safe to send twice).',
    input: z.object({ invoice: z.string(), waitMs: z.number().int().min(0) }),
    task: { support: 'required', pollIntervalMs: 100, repeatWindowMs: 0 },
  }),
};
const handlers = {
  send_invoice: async ({ invoice, waitMs }: { invoice: string; waitMs: number }, context: McpToolContext) => {
    const taskId = context.taskId as string;
    runs.set(taskId, (runs.get(taskId) ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    return `invoice ${invoice} sent`;
  },
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function request(base: string, method: string, params: Record<string, unknown>) {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: requestHeaders(method, params, {}),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: method,
      method,
      params: { _meta: requestMeta(DECLARING), ...params },
    }),
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
  return { status: response.status, body: JSON.parse(await response.text()) };
}

const call = (base: string, invoice: string, waitMs: number) =>
  request(base, 'tools/call', { name: 'send_invoice', arguments: { invoice, waitMs } });

const CLIENTS: Record<string, RedisOptions> = {
  'fail-fast (commandTimeout: 2000)': { commandTimeout: 2_000 },
  'as the guide sets it up': {},
};

needs('redis-server').describe('a Redis outage longer than the lease', () => {
  let redis: RedisServer;

  beforeEach(async () => {
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    redis = await startRedisServer();
  });
  afterEach(async () => {
    await redis?.stop();
    vi.restoreAllMocks();
  });

  describe.each(Object.entries(CLIENTS))('with an ioredis client %s', (_name, clientOptions) => {
    test('every task ends once with its own result; calls during it are answered 503, never left hanging', async () => {
      runs.clear();
      const client = new Redis(redis.url, clientOptions);
      client.on('error', () => {});
      const connection = fromIoredis(client);
      const executor = redisStreamsExecutor(connection, {
        consumer: 'node-1',
        leaseMs: LEASE_MS,
        blockMs: 200,
      });
      const store = redisTaskStore(connection, { timeoutMs: STORE_TIMEOUT_MS });
      const runtime = createToolRuntime(prepareToolSet(tools), { handlers });
      const server = await serveHttp(runtime, { name: 'invoices', version: '1.0.0' }, 0, {
        tasks: { store, executor },
      });
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        // In flight when Redis stops: four run (the executor's concurrency), two wait on the stream.
        const handles: string[] = [];
        for (let index = 0; index < 6; index++) {
          const made = await call(base, `before-${index}`, 1_500);
          expect(made.body.result).toMatchObject({ resultType: 'task', status: 'working' });
          handles.push(made.body.result.taskId);
        }
        await vi.waitFor(() => expect(runs.size).toBeGreaterThan(0), { timeout: 5_000 });
        await redis.halt();

        // New calls and reads during the outage: answered at once, with the store's error.
        const during = await Promise.all([
          call(base, 'during-1', 0),
          call(base, 'during-2', 0),
          request(base, 'tasks/get', { taskId: handles[0] }),
        ]);
        for (const answer of during) {
          expect(answer.status).toBe(503);
          expect(answer.body.error).toMatchObject({
            code: -32603,
            message: expect.stringMatching(/^Task store unavailable: /),
          });
        }
        // Longer than the lease: every entry under way now looks stopped to a reaper.
        await sleep(LEASE_MS * 2.5);
        await redis.restart();

        // The client reconnects with its own backoff: until it has, a call is still answered 503 at once.
        const after = await vi.waitFor(
          async () => {
            const answer = await call(base, 'after', 0);
            if (answer.status === 503) expect(answer.body.error.message).toMatch(/^Task store unavailable: /);
            expect(answer.body.result).toMatchObject({ resultType: 'task' });
            return answer;
          },
          { timeout: 10_000, interval: 100 },
        );
        handles.push(after.body.result.taskId);

        for (const [index, taskId] of handles.entries()) {
          const invoice = index < 6 ? `before-${index}` : 'after';
          await vi.waitFor(
            async () => {
              const got = await request(base, 'tasks/get', { taskId });
              expect(got.body.result?.status).toBe('completed');
              expect(got.body.result.result.content).toEqual([
                { type: 'text', text: `invoice ${invoice} sent` },
              ]);
            },
            { timeout: 20_000, interval: 200 },
          );
        }
        // Once each: none failed without having run, none run twice (one more lease, for a late reaper).
        await sleep(LEASE_MS * 2);
        expect(handles.map((taskId) => runs.get(taskId))).toEqual(handles.map(() => 1));
        for (const taskId of handles)
          expect((await request(base, 'tasks/get', { taskId })).body.result.status).toBe('completed');
        // Figures for the report.
        process.stdout.write(
          `[outage] ${_name}: tasks ${handles.length}, completed ${handles.length}, runs ${[...runs.values()].reduce((a, b) => a + b, 0)} (of ${runs.size} tasks run), calls answered 503 ${during.length}\n`,
        );
      } finally {
        server.close();
        await executor.close();
        await connection.close();
        client.disconnect();
      }
    }, 60_000);
  });
});

needs('redis-server').describe('a Redis that keeps nothing on disk', () => {
  let redis: RedisServer;
  let client: Redis;
  beforeEach(async () => {
    redis = await startRedisServer({ appendonly: false });
    client = new Redis(redis.url);
  });
  afterEach(async () => {
    client?.disconnect();
    await redis?.stop();
  });
  const task = {
    taskId: 'persistence-check',
    principal: 'alice',
    tool: 'send_invoice',
    args: {},
    capabilities: {},
    ttlMs: 60_000,
    pollIntervalMs: 100,
    rerunnable: false,
  };

  test('the store warns once at start that tasks would not survive a restart', async () => {
    const reported: string[] = [];
    const store = redisTaskStore(fromIoredis(client), { onerror: (error) => reported.push(error.message) });
    await vi.waitFor(() => expect(reported).toHaveLength(1));
    expect(reported[0]).toMatch(
      /^\[toolprep\] Redis does not keep the tasks through a restart \(appendonly no, save "": a restart loses every task\).+appendonly yes/,
    );
    await store.create(task);
    expect(reported).toHaveLength(1);
  });

  test("with persistence: 'require', it creates no task and health says why", async () => {
    const store = redisTaskStore(fromIoredis(client), { persistence: 'require', onerror: () => {} });
    await expect(store.create(task)).rejects.toThrow(
      /^\[toolprep\] the Redis task store creates no task: it was given persistence: 'require', and Redis does not keep an append-only file/,
    );
    expect(await store.health?.()).toMatchObject({
      ok: false,
      reason: expect.stringContaining("persistence: 'require'"),
    });
    expect(await store.get(task.taskId)).toBeUndefined();
  });

  test("with persistence: 'ignore', it reads and says nothing", async () => {
    const reported: string[] = [];
    const store = redisTaskStore(fromIoredis(client), {
      persistence: 'ignore',
      onerror: (error) => reported.push(error.message),
    });
    expect((await store.create(task)).created).toBe(true);
    expect(reported).toEqual([]);
  });
});

needs('redis-server').describe('a managed Redis that refuses CONFIG and INFO', () => {
  test('the store says once that it could not read whether Redis persists', async () => {
    const redis = await startRedisServer({
      args: ['--rename-command', 'CONFIG', '', '--rename-command', 'INFO', ''],
    });
    // ioredis's own ready check is an INFO: this Redis refuses it.
    const client = new Redis(redis.url, { enableReadyCheck: false });
    try {
      const reported: string[] = [];
      redisTaskStore(fromIoredis(client), { onerror: (error) => reported.push(error.message) });
      await vi.waitFor(() => expect(reported).toHaveLength(1));
      expect(reported[0]).toMatch(
        /^\[toolprep\] could not read whether Redis keeps the tasks through a restart \(CONFIG GET was refused: .+\)/,
      );
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });
});
