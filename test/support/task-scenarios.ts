import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { requestHeaders, requestMeta } from '../../scripts/mcp-2026-wire.mjs';

/**
 * The scenarios of MCP tasks (the `io.modelcontextprotocol/tasks` extension of 2026-07-28) over
 * the tools of fixtures/tasks, run against any deployment of them: one process with the memory
 * store, or several nodes behind a round-robin balancer sharing a Redis. Each is one test; the
 * ones that need a node to die run only where `kill` is given.
 */

export { VERSION } from '../../scripts/mcp-2026-wire.mjs';
export const TASKS = 'io.modelcontextprotocol/tasks';

export interface TaskDeployment {
  /** Where clients send requests: the balancer, or the one server. */
  readonly url: string;
  /** Each node's own address (`http://127.0.0.1:port`), to ask one node directly. */
  readonly nodes: readonly string[];
  /** The node (one of `nodes`) that last printed `running <tool> <taskId>`: the one running it (waits for one). */
  runnerOf(taskId: string): Promise<string>;
  /** Kills a node at once (SIGKILL): what a crash does. Only where there are nodes to spare. */
  readonly kill?: (node: string) => Promise<void>;
}

export interface Answer {
  readonly status: number;
  /** The node that answered, as the balancer reports it (`X-Upstream`), or the address asked. */
  readonly node: string;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly result?: Record<string, unknown>;
}

export interface PostOptions {
  /** Declared per request; default: the tasks extension and form elicitation. */
  readonly capabilities?: Record<string, unknown>;
  /** Sent as `Authorization: Bearer <principal>`: who is asking. Default `alice`; `''` sends none (anonymous). */
  readonly principal?: string;
  /** Headers to send instead of the standard ones (`mcp-name` set to another task id). */
  readonly headers?: Record<string, string>;
}

export const DECLARING = { extensions: { [TASKS]: {} }, elicitation: { form: {} } };

/** One POST as a 2026-07-28 client sends it, with `Mcp-Name` set as the spec says (tool name, or task id). */
export async function post(
  base: string,
  method: string,
  params: Record<string, unknown> = {},
  { capabilities = DECLARING, principal = 'alice', headers = {} }: PostOptions = {},
): Promise<Answer> {
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: requestHeaders(method, params, {
      ...(principal ? { authorization: `Bearer ${principal}` } : {}),
      ...headers,
    }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { _meta: requestMeta(capabilities), ...params },
    }),
  });
  const body = JSON.parse(await response.text());
  return {
    status: response.status,
    node: response.headers.get('x-upstream') ?? new URL(base).host,
    ...(body.error ? { error: body.error } : { result: body.result }),
  };
}

/** Starts a task: the call's answer must be a task handle. */
async function startTask(
  base: string,
  name: string,
  args: Record<string, unknown>,
  options?: PostOptions,
): Promise<Record<string, unknown>> {
  const answer = await post(base, 'tools/call', { name, arguments: args }, options);
  expect(answer.error).toBeUndefined();
  expect(answer.result).toMatchObject({ resultType: 'task', status: 'working' });
  return answer.result as Record<string, unknown>;
}

/** Polls `tasks/get` through `base` until the task's status is one of `statuses`; returns it and who answered. */
export async function pollUntil(
  base: string,
  taskId: string,
  statuses: readonly string[],
  { timeoutMs = 20_000, principal }: { timeoutMs?: number; principal?: string } = {},
): Promise<{ task: Record<string, unknown>; answeredBy: Set<string> }> {
  const answeredBy = new Set<string>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await post(base, 'tasks/get', { taskId }, { ...(principal ? { principal } : {}) });
    if (answer.error) throw new Error(`tasks/get refused: ${JSON.stringify(answer.error)}`);
    answeredBy.add(answer.node);
    const task = answer.result as Record<string, unknown>;
    expect(task.resultType).toBe('complete');
    if (statuses.includes(task.status as string)) return { task, answeredBy };
    if (Date.now() > deadline)
      throw new Error(
        `task ${taskId} still ${String(task.status)} after ${timeoutMs} ms (waiting for ${statuses.join(', ')})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Reads a `subscriptions/listen` stream's events until `done` says so (or the timeout). */
async function listenUntil(
  base: string,
  taskIds: readonly string[],
  done: (messages: Record<string, unknown>[]) => boolean,
  { timeoutMs = 20_000, onOpen }: { timeoutMs?: number; onOpen?: () => Promise<void> } = {},
): Promise<Record<string, unknown>[]> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const response = await fetch(`${base}/mcp`, {
    method: 'POST',
    signal: controller.signal,
    headers: requestHeaders('subscriptions/listen', {}, { authorization: 'Bearer alice' }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: { _meta: requestMeta(DECLARING), notifications: { taskIds } },
    }),
  });
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  const messages: Record<string, unknown>[] = [];
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let opened = false;
  try {
    while (!done(messages)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffered += decoder.decode(value, { stream: true });
      for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('');
        if (data) messages.push(JSON.parse(data));
      }
      if (!opened && messages.length > 0 && onOpen) {
        opened = true;
        await onOpen();
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return messages;
}

const taskIdOf = (task: Record<string, unknown>) => task.taskId as string;

/**
 * Where the handlers of fixtures/tasks note each run their task's signal aborted (one file per
 * task id, saying `<tool> on <node>`). Set here, on import, so that the handlers of this process
 * and of every server process the test file starts afterwards (they inherit the environment) note
 * into one folder of this file's own.
 */
const ABORTED_RUNS_DIR = mkdtempSync(path.join(tmpdir(), 'toolprep-aborted-runs-'));
process.env.ABORTED_RUNS_DIR = ABORTED_RUNS_DIR;

/** What the handler of `taskId` noted when its signal aborted (waits for it), or that it noted nothing. */
async function abortedRun(taskId: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return readFileSync(path.join(ABORTED_RUNS_DIR, taskId), 'utf8');
    } catch {
      if (Date.now() > deadline) return `no handler noted an abort of ${taskId} within ${timeoutMs} ms`;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Declares every scenario as a test against `deployment()` (read when each test runs). */
export function taskScenarios(deployment: () => TaskDeployment): void {
  afterAll(() => rmSync(ABORTED_RUNS_DIR, { recursive: true, force: true }));

  test('a task made on one node is polled on the others, and its result is the one its output schema parsed', async () => {
    const { url, nodes } = deployment();
    const pages = ['intro', 'numbers', 'outlook'];
    const task = await startTask(url, 'build_report', { pages, pageMs: 150 });
    expect(task).toMatchObject({ ttlMs: 3_600_000, pollIntervalMs: 100 });
    expect(taskIdOf(task)).toMatch(/^[0-9a-f-]{36}$/);
    const { task: done, answeredBy } = await pollUntil(url, taskIdOf(task), ['completed', 'failed']);
    expect(done.status).toBe('completed');
    // The tool result as 2026-07-28 carries it: with its own resultType.
    expect(done.result).toMatchObject({ resultType: 'complete' });
    const result = done.result as { structuredContent: { node: string; pages: number; titles: string[] } };
    expect(result.structuredContent).toMatchObject({ pages: 3, titles: pages });
    // Round robin without affinity: the polls landed on more than one node.
    if (nodes.length > 1) expect(answeredBy.size).toBeGreaterThan(1);
  });

  test('the arguments stored are the ones the plan repaired and the parsers accepted; refused ones make no task', async () => {
    const { url } = deployment();
    // A list sent as JSON text (double-serialised) is repaired before the task is made.
    const task = await startTask(url, 'build_report', { pages: JSON.stringify(['one', 'two']), pageMs: 0 });
    const { task: done } = await pollUntil(url, taskIdOf(task), ['completed', 'failed']);
    expect((done.result as { structuredContent: { titles: string[] } }).structuredContent.titles).toEqual([
      'one',
      'two',
    ]);
    const refused = await post(url, 'tools/call', {
      name: 'build_report',
      arguments: { pages: [], pageMs: 0 },
    });
    expect(refused.result).toMatchObject({ resultType: 'complete', isError: true });
    expect(JSON.stringify(refused.result)).toMatch(/pages/);
  });

  test('an input request is answered through another node while the first runs the task', async () => {
    const { url, nodes, runnerOf } = deployment();
    const task = await startTask(url, 'deploy_release', { release: 'v7', waitMs: 100 });
    const { task: asking } = await pollUntil(url, taskIdOf(task), ['input_required']);
    expect(asking.inputRequests).toEqual({
      'input-1': {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: expect.stringMatching(/^Deploy v7\?/) }),
      },
    });
    const runner = await runnerOf(taskIdOf(task));
    const other = nodes.find((node) => node !== runner) ?? runner;
    const update = await post(other, 'tasks/update', {
      taskId: taskIdOf(task),
      inputResponses: {
        'input-1': { action: 'accept', content: { confirm: true } },
        'never-asked': { action: 'accept', content: {} },
      },
    });
    expect(update.result).toMatchObject({ resultType: 'complete' });
    const { task: done } = await pollUntil(url, taskIdOf(task), ['completed', 'failed']);
    const text = (done.result as { content: { text: string }[] }).content[0]?.text;
    expect(text).toMatch(/^v7 deployed by node /);
  });

  test('a cancelled task stays cancelled, and its handler is aborted', async () => {
    const { url } = deployment();
    const task = await startTask(url, 'build_report', { pages: ['a', 'b', 'c', 'd'], pageMs: 2_000 });
    await pollUntil(url, taskIdOf(task), ['working']);
    const cancel = await post(url, 'tasks/cancel', { taskId: taskIdOf(task) });
    expect(cancel.result).toMatchObject({ resultType: 'complete' });
    const { task: cancelled } = await pollUntil(url, taskIdOf(task), ['cancelled', 'completed', 'failed']);
    expect(cancelled.status).toBe('cancelled');
    // The handler's own signal was aborted, on whichever node ran it: the run was stopped, not
    // merely outlived (its 8 s of pages are far from over).
    expect(await abortedRun(taskIdOf(task))).toMatch(/^build_report on /);
    // Long after the run would have ended, it is still cancelled: the aborted run did not settle it.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const later = await post(url, 'tasks/get', { taskId: taskIdOf(task) });
    expect(later.result).toMatchObject({ status: 'cancelled' });
    expect(later.result).not.toHaveProperty('result');
  });

  test("a handler's JSON-RPC error fails the task; its own error completes it as a tool error", async () => {
    const { url } = deployment();
    const protocol = await startTask(url, 'check_health', { how: 'protocol' });
    const { task: failed } = await pollUntil(url, taskIdOf(protocol), ['completed', 'failed']);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'the health service is unreachable' },
    });
    expect(failed).not.toHaveProperty('result');
    const tool = await startTask(url, 'check_health', { how: 'tool' });
    const { task: completed } = await pollUntil(url, taskIdOf(tool), ['completed', 'failed']);
    expect(completed).toMatchObject({
      status: 'completed',
      result: {
        resultType: 'complete',
        isError: true,
        content: [{ type: 'text', text: 'the service is unhealthy' }],
      },
    });
  });

  test("the policy's questions are asked before the task is made, and the task has their answers", async () => {
    const { url } = deployment();
    const round1 = await post(url, 'tools/call', { name: 'greet_later', arguments: { waitMs: 0 } });
    expect(round1.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        user_name: { method: 'elicitation/create', params: { mode: 'form', message: 'What is your name?' } },
      },
    });
    expect(round1.result).not.toHaveProperty('taskId');
    const { requestState } = round1.result as { requestState: string };
    const noElicitation = await post(
      url,
      'tools/call',
      { name: 'greet_later', arguments: { waitMs: 0 } },
      { capabilities: { extensions: { [TASKS]: {} } } },
    );
    expect(noElicitation.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
    const round2 = await post(url, 'tools/call', {
      name: 'greet_later',
      arguments: { waitMs: 0 },
      inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } },
      requestState,
    });
    expect(round2.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(round2.result).not.toHaveProperty('requestState');
    expect(round2.result).not.toHaveProperty('inputRequests');
    const { task: done } = await pollUntil(url, taskIdOf(round2.result as Record<string, unknown>), [
      'completed',
      'failed',
    ]);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Hello, Alice!' }] },
    });
  });

  test('a task is kept for its TTL only', async () => {
    const { url } = deployment();
    const task = await startTask(url, 'short_lived', { waitMs: 10_000 });
    expect(task.ttlMs).toBe(1_500);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const gone = await post(url, 'tasks/get', { taskId: taskIdOf(task) });
    expect(gone.error).toMatchObject({ code: -32602 });
  });

  test("one principal cannot read, answer or cancel another's task", async () => {
    const { url } = deployment();
    const task = await startTask(url, 'build_report', { pages: ['private'], pageMs: 300 });
    for (const method of ['tasks/get', 'tasks/cancel'] as const) {
      const answer = await post(url, method, { taskId: taskIdOf(task) }, { principal: 'mallory' });
      expect(answer.error).toMatchObject({ code: -32602 });
    }
    const update = await post(
      url,
      'tasks/update',
      { taskId: taskIdOf(task), inputResponses: {} },
      { principal: 'mallory' },
    );
    expect(update.error).toMatchObject({ code: -32602 });
    const { task: done } = await pollUntil(url, taskIdOf(task), ['completed']);
    expect(done.status).toBe('completed');
  });

  test('an unknown task id is -32602', async () => {
    const { url } = deployment();
    const answer = await post(url, 'tasks/get', { taskId: '00000000-0000-4000-8000-000000000000' });
    expect(answer.error).toMatchObject({ code: -32602 });
  });

  test('a client that did not declare the extension gets -32021 for a required task, a result for an optional one', async () => {
    const { url } = deployment();
    const plain = { elicitation: { form: {} } };
    const required = await post(
      url,
      'tools/call',
      { name: 'build_report', arguments: { pages: ['x'], pageMs: 0 } },
      { capabilities: plain },
    );
    expect(required.status).toBe(400);
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    const poll = await post(url, 'tasks/get', { taskId: 'any' }, { capabilities: plain });
    expect(poll.error).toMatchObject({ code: -32021 });
    const optional = await post(
      url,
      'tools/call',
      { name: 'look_up', arguments: { word: 'tide' } },
      { capabilities: plain },
    );
    expect(optional.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'tide: a word' }],
    });
    const asTask = await post(url, 'tools/call', { name: 'look_up', arguments: { word: 'tide' } });
    expect(asTask.result).toMatchObject({ resultType: 'task' });
    const discover = await post(url, 'server/discover');
    expect(discover.result).toMatchObject({ capabilities: { extensions: { [TASKS]: {} } } });
  });

  test('an Mcp-Name that is not the task id is refused', async () => {
    const { url } = deployment();
    const task = await startTask(url, 'build_report', { pages: ['x'], pageMs: 0 });
    const answer = await post(
      url,
      'tasks/get',
      { taskId: taskIdOf(task) },
      { headers: { 'mcp-name': 'another-task' } },
    );
    expect(answer.status).toBe(400);
    expect(answer.error).toMatchObject({ code: -32020 });
  });

  test('a re-sent call returns the task the first made; another principal or other arguments make another', async () => {
    const { url } = deployment();
    const args = { release: `v${Date.now()}`, waitMs: 0 };
    const first = await startTask(url, 'deploy_release', args);
    await pollUntil(url, taskIdOf(first), ['input_required']);
    // The handle of the first task, as it is now (asking its question).
    const again = await post(url, 'tools/call', { name: 'deploy_release', arguments: args });
    expect(again.result).toMatchObject({
      resultType: 'task',
      taskId: taskIdOf(first),
      status: 'input_required',
    });
    const theirs = await startTask(url, 'deploy_release', args, { principal: 'bob' });
    expect(taskIdOf(theirs)).not.toBe(taskIdOf(first));
    const other = await startTask(url, 'deploy_release', { ...args, release: `${args.release}-b` });
    expect(taskIdOf(other)).not.toBe(taskIdOf(first));
    for (const [task, principal] of [
      [first, 'alice'],
      [theirs, 'bob'],
      [other, 'alice'],
    ] as const)
      await post(url, 'tasks/cancel', { taskId: taskIdOf(task) }, { principal });
  });

  test('subscriptions/listen delivers each transition of a task, whichever node makes it', async () => {
    const { url, nodes } = deployment();
    const task = await startTask(url, 'deploy_release', { release: 'v9', waitMs: 0 });
    await pollUntil(url, taskIdOf(task), ['input_required']);
    const listener = nodes[nodes.length - 1] as string;
    const messages = await listenUntil(
      listener,
      [taskIdOf(task), 'not-a-task'],
      (seen) => seen.some((message) => (message.params as { status?: string })?.status === 'completed'),
      {
        // Once acknowledged, answer the question through the balancer.
        onOpen: async () => {
          await post(url, 'tasks/update', {
            taskId: taskIdOf(task),
            inputResponses: { 'input-1': { action: 'accept', content: { confirm: true } } },
          });
        },
      },
    );
    expect(messages[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
      params: {
        notifications: { taskIds: [taskIdOf(task)] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'listen-1' },
      },
    });
    const statuses = messages.slice(1).map((message) => {
      expect(message.method).toBe('notifications/tasks');
      return (message.params as { status: string }).status;
    });
    expect(statuses).toContain('working');
    expect(statuses.at(-1)).toBe('completed');
  });

  test('a node that dies mid-task: another reruns an idempotent task and fails one that is not', async (context) => {
    const { url, runnerOf, kill } = deployment();
    if (!kill) return context.skip();
    const rerun = await startTask(url, 'build_report', {
      pages: ['a', 'b', 'c', 'd', 'e', 'f'],
      pageMs: 500,
    });
    const first = await runnerOf(taskIdOf(rerun));
    await kill(first);
    const { task: rerunDone } = await pollUntil(url, taskIdOf(rerun), ['completed', 'failed'], {
      timeoutMs: 30_000,
    });
    expect(rerunDone.status).toBe('completed');
    expect(await runnerOf(taskIdOf(rerun))).not.toBe(first);

    const failed = await startTask(url, 'deploy_release', { release: `crash-${Date.now()}`, waitMs: 0 });
    await pollUntil(url, taskIdOf(failed), ['input_required']);
    await kill(await runnerOf(taskIdOf(failed)));
    const { task: failedDone } = await pollUntil(url, taskIdOf(failed), ['completed', 'failed'], {
      timeoutMs: 30_000,
    });
    expect(failedDone).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(failedDone.statusMessage).toMatch(/not marked idempotent/);
  });
}
