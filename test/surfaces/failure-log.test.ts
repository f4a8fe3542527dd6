import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { type FunctionTool, RunContext } from '@openai/agents';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { aiTools } from 'toolprep/ai';
import { runAnthropicToolUse } from 'toolprep/anthropic';
import { runToolCli } from 'toolprep/cli';
import { runGeminiFunctionCall } from 'toolprep/gemini';
import { attachTools } from 'toolprep/mcp/v2';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { runChatToolCall, runResponsesFunctionCall } from 'toolprep/openai';
import { agentsTools } from 'toolprep/openai-agents';
import { createToolRuntime, type ToolRuntime } from 'toolprep/runtime';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { requestHeaders, requestMeta } from '../../scripts/mcp-2026-wire.mjs';
import { PROFILE_NAMES } from '../../src/manifest/profiles.js';

/**
 * Failures are logged by default (decision 0044): whatever surface a call comes through, a failure
 * of the server's side (a contract that did not load, a handler that threw, a value its output
 * schema refused) is written to stderr once per cause, with the cause's stack, and never an
 * argument; what is the caller's (refused arguments, an unknown tool) or the tool's own answer (an
 * `isError` result, a thrown "invalid params") is not. An `error` hook replaces the log. The
 * surfaces write to process.stderr, which is what these tests read.
 */

const SECRET = 'sk-live-0123456789abcdef';
const input = z.object({ token: z.string() });
const contracts = {
  explode: defineTool({ description: 'Queries the database.', input }),
  broken: defineTool({ description: 'Cannot load.', input }),
  shaped: defineTool({ description: 'Counts.', input, output: z.object({ count: z.number() }) }),
  reports: defineTool({ description: 'Reports its own error.', input }),
  refuses: defineTool({ description: 'Refuses as the SDKs do.', input }),
};
const prepared = prepareToolSet(contracts, { profiles: [...PROFILE_NAMES] });
const LOADER_ERROR = "Cannot find module '/srv/app/tools/db.js' imported from /srv/app/tools/broken.js";
const toolSet = {
  ...prepared,
  // What a generated loader does when the contract's module throws as it is evaluated.
  load: { ...prepared.load, broken: () => Promise.reject(new Error(LOADER_ERROR)) },
};
const handlers = {
  explode: () => {
    throw new Error('the database refused the query');
  },
  broken: () => 'never runs',
  shaped: () => ({ count: 'many' }),
  reports: () => ({ isError: true, content: [{ type: 'text', text: 'no such note' }] }),
  refuses: () => {
    throw Object.assign(new Error('token is not one of ours'), { code: -32602 });
  },
};

const EXPECTED = [
  `[toolprep] tool "broken" could not be loaded (LOAD_ERROR): ${LOADER_ERROR}`,
  '[toolprep] tool "explode" threw (HANDLER_ERROR): the database refused the query',
  '[toolprep] tool "shaped" returned a value that could not be sent (OUTPUT_ERROR): Tool "shaped" returned a value its output schema refuses: count: Invalid input: expected number, received string',
];
/** Calls with a secret among the arguments: each failing tool, and a refusal of the caller's arguments. */
const CALLS: readonly [string, Record<string, unknown>][] = [
  ['explode', { token: SECRET }],
  ['broken', { token: SECRET }],
  ['shaped', { token: SECRET }],
  ['reports', { token: SECRET }],
  ['refuses', { token: SECRET }],
  ['explode', { tokn: SECRET }],
  ['nothing', { token: SECRET }],
];

const INFO = { name: 'failures', version: '1.0.0' };
const wire = (name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: args, _meta: requestMeta() },
});
const modernRequest = (name: string, args: unknown) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: requestHeaders('tools/call', { name }),
    body: JSON.stringify(wire(name, args)),
  });
/** A 2025 call, stateless, as the SDK's transport takes one. */
const legacyRequest = (name: string, args: unknown) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });

type Surface = (runtime: ToolRuntime, name: string, args: Record<string, unknown>) => Promise<unknown>;
const SURFACES: Record<string, Surface> = {
  runtime: (runtime, name, args) => runtime.call(name, args, { secret: SECRET }),
  'AI SDK': async (runtime, name, args) =>
    aiTools(runtime)
      [name]?.execute?.(args, { toolCallId: 'c1', messages: [] })
      .catch((error: unknown) => error),
  'OpenAI Chat Completions': (runtime, name, args) =>
    runChatToolCall(runtime, {
      id: 'c1',
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    }),
  'OpenAI Responses': (runtime, name, args) =>
    runResponsesFunctionCall(runtime, { call_id: 'c1', name, arguments: JSON.stringify(args) }),
  'OpenAI Agents': async (runtime, name, args) =>
    agentsTools(runtime)
      .find((tool): tool is FunctionTool => tool.type === 'function' && tool.name === name)
      ?.invoke(new RunContext(), JSON.stringify(args)),
  Anthropic: (runtime, name, args) => runAnthropicToolUse(runtime, { id: 'tu1', name, input: args }),
  Gemini: (runtime, name, args) => runGeminiFunctionCall(runtime, { id: 'g1', name, args }),
  'shell CLI': (runtime, name, args) =>
    runToolCli(runtime, [name, '--json', JSON.stringify(args)], { stdout: () => {}, stderr: () => {} }),
  'MCP 2026-07-28 (fetch)': (runtime, name, args) =>
    createMcpFetchHandler(runtime, INFO)(modernRequest(name, args)).then((response) => response.text()),
  'MCP 2025 (fetch, the SDK)': (runtime, name, args) =>
    createMcpFetchHandler(runtime, INFO)(legacyRequest(name, args)).then((response) => response.text()),
  'SDK v2 hand-over (createMcpHandler)': (runtime, name, args) =>
    createMcpHandler(() => attachTools(new McpServer(INFO), runtime))
      .fetch(modernRequest(name, args))
      .then((response) => response.text()),
};

let written: string[];
beforeEach(() => {
  written = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});
/** The first lines of what was written, in order: one per failure logged. */
const headings = () => written.map((text) => text.split('\n', 1)[0]);

describe.each(Object.entries(SURFACES))('%s', (_name, send) => {
  test('logs each failure of the server once, with its stack, and no argument', async () => {
    const runtime = createToolRuntime(toolSet, { handlers });
    for (let round = 0; round < 3; round++) for (const [name, args] of CALLS) await send(runtime, name, args);
    expect(headings().sort()).toEqual(EXPECTED);
    const explode = written.find((text) => text.includes('"explode"')) as string;
    expect(explode).toMatch(/\n {4}Error: the database refused the query\n {4}\s+at /);
    expect(written.join('')).not.toContain(SECRET);
  });

  test('logs nothing where an error hook is given', async () => {
    const seen: string[] = [];
    const runtime = createToolRuntime(toolSet, {
      handlers,
      hooks: { error: ({ error }) => seen.push(error.code) },
    });
    for (const [name, args] of CALLS) await send(runtime, name, args);
    expect(written).toEqual([]);
    expect(seen).toContain('HANDLER_ERROR');
  });
});

test('a cause that repeats is counted: its first line again at the 10th, 100th, 1,000th time', async () => {
  const runtime = createToolRuntime(toolSet, { handlers });
  for (let call = 0; call < 1000; call++) await runtime.call('explode', { token: SECRET });
  const again = (count: number) =>
    `[toolprep] the same failure again, ${count} times in all: tool "explode" threw (HANDLER_ERROR): the database refused the query`;
  expect(headings()).toEqual([EXPECTED[1], again(10), again(100), again(1000)]);
});

test('another message is another cause; another runtime logs its own', async () => {
  let count = 0;
  const counting = {
    ...handlers,
    explode: () => {
      throw new Error(`failure ${++count % 2}`);
    },
  };
  const runtime = createToolRuntime(toolSet, { handlers: counting });
  for (let call = 0; call < 4; call++) await runtime.call('explode', { token: SECRET });
  await createToolRuntime(toolSet, { handlers: counting }).call('explode', { token: SECRET });
  expect(headings().sort()).toEqual([
    '[toolprep] tool "explode" threw (HANDLER_ERROR): failure 0',
    '[toolprep] tool "explode" threw (HANDLER_ERROR): failure 1',
    '[toolprep] tool "explode" threw (HANDLER_ERROR): failure 1',
  ]);
});

test('a task whose run throws: logged once per cause, as any call', async () => {
  const later = defineTool({ description: 'Queries, as a task.', input, task: 'required' });
  const runtime = createToolRuntime(prepareToolSet({ later }), {
    handlers: {
      later: () => {
        throw new Error('the database refused the query');
      },
    },
  });
  const handle = createMcpFetchHandler(runtime, INFO);
  const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  const post = async (method: string, params: Record<string, unknown>) => {
    const response = await handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: requestHeaders(method, params),
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: { ...params, _meta: requestMeta(TASKS) },
        }),
      }),
    );
    const { result } = (await response.json()) as { result: { taskId: string; status: string } };
    return result;
  };
  for (let run = 0; run < 3; run++) {
    const { taskId } = await post('tools/call', { name: 'later', arguments: { token: SECRET } });
    // The run is the executor's, in the background: asked after, a turn of the event loop apart, until it has ended.
    let task = await post('tasks/get', { taskId });
    while (task.status === 'working') {
      await new Promise((resolve) => setImmediate(resolve));
      task = await post('tasks/get', { taskId });
    }
    expect(task.status).toBe('completed');
  }
  expect(headings()).toEqual([
    '[toolprep] tool "later" threw (HANDLER_ERROR): the database refused the query',
  ]);
  expect(written.join('')).not.toContain(SECRET);
});

test('a failure of the server outside a call (a hand-over that throws) is logged once per cause by default', async () => {
  const runtime = createToolRuntime(toolSet, { handlers });
  const handle = createMcpFetchHandler(runtime, INFO, {
    server: () => {
      throw new Error('cannot read /srv/app/config.json');
    },
  });
  for (let call = 0; call < 3; call++)
    expect((await handle(legacyRequest('explode', { token: SECRET }))).status).toBe(500);
  expect(headings()).toEqual([
    '[toolprep] an MCP request failed inside the server: cannot read /srv/app/config.json',
  ]);
  expect(written.join('')).toMatch(/\n {4}Error: cannot read \/srv\/app\/config\.json\n/);
  expect(written.join('')).not.toContain(SECRET);
});
