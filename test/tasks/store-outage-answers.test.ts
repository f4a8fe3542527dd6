import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { prepareToolSet } from '@toolprep/build';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, type MockInstance, test, vi } from 'vitest';
import { handlers } from '../../fixtures/tasks/src/handlers.js';
import * as tools from '../../fixtures/tasks/src/tools.js';
import { freePort } from '../../scripts/local-servers.mjs';
import { requestHeaders, requestMeta } from '../../scripts/mcp-2026-wire.mjs';
import { createToolRuntime } from '../../src/runtime/index.js';
import { logError } from '../../src/shared/run/on-error.js';
import { serveHttp } from '../../src/surfaces/mcp/index.js';
import { fromIoredis, type RedisConnection, redisTaskStore } from '../../src/tasks/redis/index.js';
import { REPO } from '../support/fixture-project.js';
import { type RedisServer, startRedisServer } from '../support/redis.js';
import { needs } from '../support/services.js';
import { DECLARING, pollUntil } from '../support/task-scenarios.js';

/**
 * What a client is answered when the task store is down (decision 0050): a task call, a
 * `tasks/get` and a listen stream during a Redis outage are answered at once with the request's
 * own id and a JSON-RPC error saying that the task store is unavailable (never the Redis client's
 * text), over HTTP with 503 and `Retry-After`, over stdio (the built package, its store pointed at
 * a closed port) with the same error; the store's own error reaches the log once. The
 * connections `fromIoredis` duplicates log their errors once per cause, never ioredis's
 * "Unhandled error event".
 */

const UNAVAILABLE = /^Task store unavailable: .+; retry in (\d+) s$/;
/** What the Redis clients say of a connection that failed: never in what the client is answered. */
const CLIENT_TEXT = /ECONNREFUSED|max retries|MaxRetries|Connection is closed|Stream isn't writeable/i;

let redis: RedisServer;
let client: Redis;
let connection: RedisConnection;
let base: string;
let close: () => void;
let stderr: MockInstance;
let consoleError: MockInstance;
/** The duplicated connections' errors, as their `onerror` heard them (each is also logged). */
const connectionErrors: string[] = [];

/** One POST with an id of its own; the answer's status, `Retry-After` and body as sent. */
async function request(id: string, method: string, params: Record<string, unknown>) {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: requestHeaders(method, params, { authorization: 'Bearer alice' }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { _meta: requestMeta(DECLARING), ...params },
    }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  };
}

function expectUnavailable(body: unknown, id: string, retryAfter: string | null): void {
  expect(body).toMatchObject({
    jsonrpc: '2.0',
    id,
    error: { code: -32603, message: expect.stringMatching(UNAVAILABLE) },
  });
  const { message, data } = (body as { error: { message: string; data: unknown } }).error;
  expect(message).not.toMatch(CLIENT_TEXT);
  expect(UNAVAILABLE.exec(message)?.[1]).toBe(retryAfter);
  expect(data).toEqual({ retryAfterSeconds: Number(retryAfter) });
}

needs('redis-server').describe('a Redis outage under a serving server', () => {
  beforeAll(async () => {
    stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    redis = await startRedisServer();
    client = new Redis(redis.url);
    // The user's own client: its errors are the user's to listen to.
    client.on('error', () => {});
    connection = fromIoredis(client, {
      onerror: (error) => {
        connectionErrors.push(error.message);
        logError(error);
      },
    });
    const store = redisTaskStore(connection, { timeoutMs: 300 });
    const runtime = createToolRuntime(prepareToolSet(tools), { handlers });
    const server = await serveHttp(runtime, { name: 'tasks', version: '1.0.0' }, 0, { tasks: { store } });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(async () => {
    close?.();
    client?.disconnect();
    // Its duplicates' `quit` would wait for a Redis that is gone.
    void connection?.close().catch(() => {});
    await redis?.stop();
    vi.restoreAllMocks();
  });

  test('during a Redis outage, task requests are answered 503 with their id, and the duplicated connection logs once', async () => {
    const made = await request('call-1', 'tools/call', {
      name: 'build_report',
      arguments: { pages: ['a'], pageMs: 0 },
    });
    const taskId = JSON.parse(made.text).result.taskId as string;
    await pollUntil(base, taskId, ['completed']);
    // A watch holds a duplicated connection (the subscriber), which reconnects through the outage.
    await connection.subscribe(`outage:${taskId}`, () => {});

    await redis.stop();

    const call = await request('call-2', 'tools/call', {
      name: 'build_report',
      arguments: { pages: ['b'], pageMs: 0 },
    });
    expect(call).toMatchObject({ status: 503, contentType: 'application/json' });
    expect(Number(call.retryAfter)).toBeGreaterThan(0);
    expectUnavailable(JSON.parse(call.text), 'call-2', call.retryAfter);

    const get = await request('get-3', 'tasks/get', { taskId });
    expect(get.status).toBe(503);
    expectUnavailable(JSON.parse(get.text), 'get-3', get.retryAfter);

    // A listen stream has begun (200) before the store is asked: its one event is the same error.
    const listen = await request('listen-4', 'subscriptions/listen', {
      notifications: { taskIds: [taskId] },
    });
    expect(listen).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    const events = listen.text.split('\n').filter((line) => line.startsWith('data: '));
    expect(events).toHaveLength(1);
    expectUnavailable(JSON.parse((events[0] as string).slice('data: '.length)), 'listen-4', call.retryAfter);

    // The subscriber fails again at each reconnection: heard each time, written once.
    await until(() => connectionErrors.length >= 3);
    const written = stderr.mock.calls.map(([text]) => String(text));
    const first = connectionErrors[0] as string;
    expect(first).toMatch(/^\[toolprep\] Redis connection error: /);
    expect(connectionErrors.filter((message) => message === first).length).toBeGreaterThan(1);
    expect(written.filter((text) => text.startsWith(`${first}\n`))).toHaveLength(1);
    // The store's own error (what to check, the client's error as its cause) is the server's log's, once.
    expect(
      written.filter((text) => /^\[toolprep\] the Redis task store did not create /.test(text)),
    ).toHaveLength(1);
    expect(written.join('')).not.toContain('Unhandled error event');
    expect(consoleError.mock.calls.flat().join(' ')).not.toContain('Unhandled error event');
  });
});

/** A stdio server of the built package whose Redis store points at `REDIS_URL`. */
const STDIO_SERVER = `import { prepareToolSet } from '@toolprep/build';
import { Redis } from 'ioredis';
import { defineTool } from 'toolprep';
import { serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { fromIoredis, redisTaskStore } from 'toolprep/tasks/redis';
import { z } from 'zod';
const report = defineTool({ description: 'Build a report.', input: z.object({ title: z.string() }), task: { support: 'required' } });
const redis = new Redis(process.env.REDIS_URL);
redis.on('error', () => {});
const runtime = createToolRuntime(prepareToolSet({ report }), { handlers: { report: ({ title }) => title } });
await serveStdio(runtime, { name: 'reports', version: '1.0.0' }, {
  tasks: { store: redisTaskStore(fromIoredis(redis), { timeoutMs: 300 }) },
  onerror: () => {},
});`;

test('over stdio, a task call and tasks/get to a store that is down get the same error, with their ids', async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', STDIO_SERVER], {
    cwd: REPO,
    env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const answers = new Map<string, unknown>();
    const heard = new Promise<void>((resolve) =>
      createInterface({ input: child.stdout }).on('line', (line) => {
        const message = JSON.parse(line);
        answers.set(message.id, message);
        if (answers.has('stdio-1') && answers.has('stdio-2')) resolve();
      }),
    );
    const send = (id: string, method: string, params: Record<string, unknown>) =>
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: requestMeta(DECLARING), ...params } })}\n`,
      );
    send('stdio-1', 'tools/call', { name: 'report', arguments: { title: 'q3' } });
    send('stdio-2', 'tasks/get', { taskId: 'a-task-nobody-made' });
    await heard;
    expectUnavailable(answers.get('stdio-1'), 'stdio-1', '5');
    expectUnavailable(answers.get('stdio-2'), 'stdio-2', '5');
  } finally {
    child.kill();
  }
});

/** Waits until `condition` holds, failing after 10 s. */
async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
