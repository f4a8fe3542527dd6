import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import { createTaskClient, type ElicitAnswer, streamableHttp, TaskCallError } from 'toolprep/tasks/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { type FixtureProject, mcpServerProject, REPO } from '../support/fixture-project.js';
import { startNginx, stopProcess } from '../support/nginx.js';
import { type RedisServer, startRedisServer } from '../support/redis.js';
import { needs } from '../support/services.js';
import {
  DECLARING,
  pollUntil,
  post,
  TASKS,
  type TaskDeployment,
  taskScenarios,
  VERSION,
} from '../support/task-scenarios.js';

/**
 * The task scenarios across three server processes built from fixtures/tasks, behind a real nginx
 * doing round robin with no affinity, sharing one Redis for the store and the executor: any node
 * may take any request, and a task runs on whichever node's executor read it from the stream. (The
 * same scenarios in one process: test/tasks/tasks-one-process.test.ts.)
 */

const STATE_KEY = 'the key every task node behind the balancer shares, 32+ characters';
const cluster = needs('nginx', 'redis-server');

// nginx forwards `Host: nodes` (the upstream's name); direct calls come with a loopback host. A
// lease of 1.5 s so that a killed node's run is reaped within seconds, not the default 30. The
// principal is the default (a digest of `Authorization`), the same on every node.
const SERVER = `import Redis from 'ioredis';
import { serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { fromIoredis, redisStreamsExecutor, redisTaskStore } from 'toolprep/tasks/redis';
import { handlers } from './handlers.js';
import { tools } from './toolprep.gen.js';
const node = process.env.NODE_ID;
const connection = fromIoredis(new Redis(process.env.REDIS_URL));
const server = await serveHttp(createToolRuntime(tools, { handlers }), { name: 'tasks', version: '1.0.0' }, Number(process.env.PORT), {
  tasks: {
    store: redisTaskStore(connection),
    executor: redisStreamsExecutor(connection, { consumer: node, leaseMs: 1500 }),
  },
  requestState: { key: process.env.STATE_KEY },
  allowedHosts: ['nodes', '127.0.0.1', 'localhost'],
});
console.log('listening on ' + server.address().port + ' as node ' + node);`;

interface Node {
  readonly id: string;
  /** `http://127.0.0.1:<port>`, as the deployment names it. */
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
}

/** One line a node printed (stdout or stderr). */
interface Line {
  readonly child: ChildProcess;
  readonly text: string;
}

// Every process this file starts, so that afterAll stops them even when beforeAll failed halfway.
const started: ChildProcess[] = [];
// Every node's lines in the one order this process received them: "the last to print" is then
// well defined across nodes (a task rerun after a kill prints again, on another node).
const lines: Line[] = [];
const outputOf = (child: ChildProcess) =>
  lines
    .filter((line) => line.child === child)
    .map((line) => line.text)
    .join('\n');

/** Starts one server process and waits for the port it got. */
function startNode(server: string, id: string, redisUrl: string): Promise<Node> {
  const child = spawn(process.execPath, [server], {
    env: { ...process.env, PORT: '0', NODE_ID: id, STATE_KEY, REDIS_URL: redisUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    const reader = () => {
      let partial = '';
      return (chunk: Buffer) => {
        partial += chunk.toString('utf8');
        const complete = partial.split('\n');
        partial = complete.pop() ?? '';
        for (const text of complete) {
          lines.push({ child, text });
          const listening = /^listening on (\d+) as node /.exec(text);
          if (listening) {
            const port = Number(listening[1]);
            resolve({ id, url: `http://127.0.0.1:${port}`, port, child });
          }
        }
      };
    };
    child.stdout.on('data', reader());
    child.stderr.on('data', reader());
    // After it listened, an exit is a kill (or a crash the scenarios will show); before, a failure.
    child.once('exit', (code, signal) =>
      reject(new Error(`node ${id} exited (${code ?? signal}) before listening:\n${outputOf(child)}`)),
    );
  });
}

let redis: RedisServer | undefined;
let project: FixtureProject | undefined;
let dir: string | undefined;
let nodes: Node[] = [];
let deployment: TaskDeployment;

/** Waits for a node to print `running <tool> <taskId> on …`; the last to print it is running it now. */
async function runnerOf(taskId: string): Promise<string> {
  const running = new RegExp(`^running \\S+ ${taskId} on `);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const last = lines.findLast((line) => running.test(line.text));
    const node = last && nodes.find((candidate) => candidate.child === last.child);
    if (node) return node.url;
    if (Date.now() > deadline)
      throw new Error(
        `no node printed "running … ${taskId}" within 15 s:\n${nodes.map((node) => `--- ${node.id} (${node.url})\n${outputOf(node.child)}`).join('\n')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** SIGKILL, as a crash: no handler runs, no lease is released, the run's stream entry stays pending. */
async function kill(url: string): Promise<void> {
  const node = nodes.find((candidate) => candidate.url === url);
  if (!node) throw new Error(`no node at ${url}`);
  const { child } = node;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  if (!cluster.present) return;
  redis = await startRedisServer();
  project = await mcpServerProject('tasks', { node: SERVER });
  // The server imports ioredis, a development dependency of this repository: linked like the SDKs.
  symlinkSync(path.join(REPO, 'node_modules/ioredis'), path.join(project.dir, 'node_modules/ioredis'), 'dir');
  const server = path.join(project.dir, 'out/node.js');
  const redisUrl = redis.url;
  nodes = await Promise.all(['a', 'b', 'c'].map((id) => startNode(server, id, redisUrl)));
  dir = mkdtempSync(path.join(tmpdir(), 'toolprep-tasks-nginx-'));
  const url = await startNginx(
    dir,
    nodes.map((node) => node.port),
    started,
  );
  deployment = { url, nodes: nodes.map((node) => node.url), runnerOf, kill };
}, 120_000);

afterAll(async () => {
  // The nodes first (they hold Redis connections), then Redis.
  await Promise.all(started.map(stopProcess));
  await redis?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  project?.remove();
});

/** Who the SDK clients are (`Authorization: Bearer sdk`): a task is read only by whoever made it. */
const SDK_PRINCIPAL = 'sdk';
const CLIENT_INFO = { name: 'tasks-cluster-test', version: '1.0.0' };

/** An SDK v2 client through nginx, pinned to 2026-07-28, declaring the tasks extension. */
async function sdkClient(): Promise<Client> {
  const client = new Client(CLIENT_INFO, {
    capabilities: DECLARING,
    versionNegotiation: { mode: { pin: VERSION } },
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${deployment.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${SDK_PRINCIPAL}` } },
    }),
  );
  return client;
}

// What the client reads of a task from `tasks/get` (the SDK lifts `resultType` off before parsing).
const TaskSchema = z.looseObject({
  taskId: z.string(),
  status: z.string(),
  inputRequests: z.record(z.string(), z.unknown()).optional(),
  result: z.unknown().optional(),
});

/** A session of ext-tasks over a connected client, answering every elicitation with `confirm: true`. */
function taskSession(client: Client, asked: unknown[] = []) {
  return createTaskSessionFromClient(client, {
    endpointId: 'tasks-cluster',
    // The SDK's 2026 codec refuses a `resultType: 'task'` answer, so the session sends `tools/call`
    // and `tasks/*` through the host: toolprep's Streamable HTTP transport.
    rawDispatch: streamableHttp(`${deployment.url}/mcp`, {
      headers: { authorization: `Bearer ${SDK_PRINCIPAL}` },
    }),
    v2RequestFraming: { protocolVersion: VERSION, clientInfo: CLIENT_INFO, clientCapabilities: DECLARING },
    onInputRequest: createApplicationInputHandler({
      elicitation: (request) => {
        asked.push(request);
        return { action: 'accept', content: { confirm: true } };
      },
      sampling: () => {
        throw new Error('no tool of fixtures/tasks samples');
      },
      roots: () => ({ roots: [] }),
    }),
  });
}

cluster.describe('the official SDK v2 client through nginx', () => {
  test('negotiates 2026-07-28, lists the seven tools and calls ping', async () => {
    const client = await sdkClient();
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
      expect(client.getServerCapabilities()).toMatchObject({ extensions: { [TASKS]: {} } });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'build_report',
        'check_health',
        'deploy_release',
        'greet_later',
        'look_up',
        'ping',
        'short_lived',
      ]);
      expect(await client.callTool({ name: 'ping', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'pong' }],
      });
    } finally {
      await client.close();
    }
  });

  test('cannot take a task handle from tools/call: its 2026 codec knows only complete and input_required', async () => {
    const client = await sdkClient();
    try {
      // The server did make a task (the client declared the extension): the SDK refuses the
      // handle before any result schema sees it. Should this fail, the SDK learned tasks, and the
      // next test can create its task through callTool.
      await expect(
        client.callTool({ name: 'build_report', arguments: { pages: ['x'], pageMs: 0 } }),
      ).rejects.toMatchObject({ code: 'UNSUPPORTED_RESULT_TYPE', data: { resultType: 'task' } });
    } finally {
      await client.close();
    }
  });

  test('drives a task with its generic request: tasks/get until asked, tasks/update, tasks/get until completed', async () => {
    const client = await sdkClient();
    // Each poll through the client: it sets `Mcp-Name` to the task id itself (SEP-2663's routing header).
    const get = (taskId: string) => client.request({ method: 'tasks/get', params: { taskId } }, TaskSchema);
    const until = async (taskId: string, status: string) => {
      const deadline = Date.now() + 20_000;
      for (let task = await get(taskId); ; task = await get(taskId)) {
        if (task.status === status) return task;
        if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}, not ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    try {
      // Made by a raw call as the same principal (the SDK cannot make it, above).
      const created = await post(
        deployment.url,
        'tools/call',
        { name: 'deploy_release', arguments: { release: `sdk-${Date.now()}`, waitMs: 0 } },
        { principal: SDK_PRINCIPAL },
      );
      expect(created.result).toMatchObject({ resultType: 'task' });
      const taskId = (created.result as { taskId: string }).taskId;
      const asking = await until(taskId, 'input_required');
      expect(Object.keys(asking.inputRequests ?? {})).toEqual(['input-1']);
      // `tasks/update` is no method of the SDK's: sent as an extension method with its result schema.
      await client.request(
        {
          method: 'tasks/update',
          params: { taskId, inputResponses: { 'input-1': { action: 'accept', content: { confirm: true } } } },
        },
        z.looseObject({}),
      );
      expect(await until(taskId, 'completed')).toMatchObject({
        result: { content: [{ type: 'text', text: expect.stringMatching(/ deployed by node [abc]$/) }] },
      });
    } finally {
      await client.close();
    }
  });
});

/** Settles an execution, failing with the reason ext-tasks gives (its schema's issues) if it did not complete. */
async function settled(execution: ToolExecution<unknown>): Promise<unknown> {
  const { outcome } = await execution.settle();
  if (outcome.status === 'completed') return outcome.result;
  const reasons: string[] = [];
  for (let error: unknown = outcome.status === 'failed' ? outcome.error : undefined; error; ) {
    reasons.push(error instanceof Error ? error.message : JSON.stringify(error));
    error = error instanceof Error ? error.cause : undefined;
  }
  throw new Error(`the task did not complete (${outcome.status}): ${reasons.join(' ← ')}`);
}

cluster.describe('the official ext-tasks client through nginx', () => {
  test('a session calls build_report as a task and settles it', async () => {
    const client = await sdkClient();
    const session = taskSession(client);
    try {
      const execution = await session.callTool('build_report', { pages: ['a', 'b'], pageMs: 100 });
      expect(execution.kind).toBe('task');
      expect(await settled(execution)).toMatchObject({
        structuredContent: { pages: 2, titles: ['a', 'b'] },
      });
    } finally {
      await session.close();
      await client.close();
    }
  });

  test('a session answers the question of deploy_release through tasks/update, and settles it', async () => {
    const client = await sdkClient();
    const asked: unknown[] = [];
    const session = taskSession(client, asked);
    try {
      const execution = await session.callTool('deploy_release', { release: `ext-${Date.now()}`, waitMs: 0 });
      expect(execution.kind).toBe('task');
      expect(await settled(execution)).toMatchObject({
        content: [{ type: 'text', text: expect.stringMatching(/ deployed by node [abc]$/) }],
      });
      expect(asked).toMatchObject([{ kind: 'elicitation' }]);
    } finally {
      await session.close();
      await client.close();
    }
  });
});

cluster.describe('toolprep/tasks/client through nginx', () => {
  const asked: unknown[] = [];
  const client = () =>
    createTaskClient(
      streamableHttp(`${deployment.url}/mcp`, { headers: { authorization: 'Bearer helper' } }),
      {
        clientInfo: CLIENT_INFO,
        answers: {
          elicitation: (params, context): ElicitAnswer => {
            asked.push({ params, context: { key: context.key, taskId: context.taskId } });
            return params.message === 'What is your name?'
              ? { action: 'accept', content: { name: 'Ada' } }
              : { action: 'accept', content: { confirm: true } };
          },
        },
      },
    );

  test('calls a plain tool and gets its result at once', async () => {
    expect(await client().callTool('ping')).toMatchObject({ content: [{ type: 'text', text: 'pong' }] });
  });

  test("follows build_report's task at the server's poll interval to its validated result", async () => {
    const seen: { status: string; pollIntervalMs?: number }[] = [];
    const result = await client().callTool(
      'build_report',
      { pages: ['a', 'b', 'c'], pageMs: 100 },
      { onTask: (task) => seen.push(task) },
    );
    expect(result).toMatchObject({ structuredContent: { pages: 3, titles: ['a', 'b', 'c'] } });
    expect(result).not.toHaveProperty('resultType');
    expect(seen[0]).toMatchObject({ status: 'working', pollIntervalMs: 100 });
    expect(seen.at(-1)).toMatchObject({ status: 'completed' });
  });

  test("answers deploy_release's question (asked by whichever node runs it) through tasks/update", async () => {
    asked.length = 0;
    const seen: string[] = [];
    const result = await client().callTool(
      'deploy_release',
      { release: `helper-${Date.now()}`, waitMs: 0 },
      { onTask: (task) => seen.push(task.status) },
    );
    expect(result).toMatchObject({ content: [{ text: expect.stringMatching(/ deployed by node [abc]$/) }] });
    expect(seen).toContain('input_required');
    expect(asked).toMatchObject([{ context: { key: 'input-1', taskId: expect.any(String) } }]);
  });

  test("answers greet_later's question before the task is made, then follows the task", async () => {
    asked.length = 0;
    expect(await client().callTool('greet_later', { waitMs: 0 })).toMatchObject({
      content: [{ text: 'Hello, Ada!' }],
    });
    expect(asked).toMatchObject([
      { params: { message: 'What is your name?' }, context: { key: 'user_name' } },
    ]);
    expect((asked[0] as { context: { taskId?: string } }).context.taskId).toBeUndefined();
  });

  test("a failed task rejects with a TaskCallError carrying the handler's JSON-RPC error", async () => {
    const error = await client()
      .callTool('check_health', { how: 'protocol' })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TaskCallError);
    expect(error).toMatchObject({
      status: 'failed',
      tool: 'check_health',
      taskId: expect.any(String),
      error: { code: -32603, message: 'the health service is unreachable' },
      message: expect.stringMatching(
        /^\[toolprep\] the task \S+ of "check_health" failed: the health service is unreachable \(-32603\)$/,
      ),
    });
    // A tool's own error is a result, not a rejection.
    expect(await client().callTool('check_health', { how: 'tool' })).toMatchObject({ isError: true });
  });

  test('aborting the signal cancels the task on the server and rejects with the reason', async () => {
    const controller = new AbortController();
    let taskId: string | undefined;
    const call = client().callTool(
      'build_report',
      { pages: ['a', 'b', 'c', 'd'], pageMs: 60_000 },
      {
        signal: controller.signal,
        onTask: (task) => {
          taskId = task.taskId;
          controller.abort(new Error('the user closed the window'));
        },
      },
    );
    await expect(call).rejects.toThrow('the user closed the window');
    const { task } = await pollUntil(deployment.url, taskId as string, ['cancelled'], {
      principal: 'helper',
    });
    expect(task).toMatchObject({ status: 'cancelled' });
  });
});

// Last: its kill scenario leaves one node of three.
cluster.describe('tasks across three nodes on Redis', () => {
  taskScenarios(() => deployment);
});

// After the scenarios: Redis is stopped under the nodes, their clients set up as the guide does.
cluster.describe('with Redis stopped', () => {
  test("a task call fails within the store bound, logged with what to check, never with the Redis client's text", async () => {
    await redis?.stop();
    const client = createTaskClient(streamableHttp(`${deployment.url}/mcp`));
    const error = await client
      .callTool('build_report', { pages: ['x'], pageMs: 0 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TaskCallError);
    expect(error).toMatchObject({ status: 'refused', error: { code: -32603 } });
    expect((error as Error).message).not.toMatch(/MaxRetries|ECONNREFUSED|max retries/i);
    const logged = lines.map((line) => line.text).join('\n');
    expect(logged).toContain(
      '[toolprep] the Redis task store did not create a task of build_report within 5000 ms',
    );
  });
});
