import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { prepareToolSet } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { serveHttp } from 'toolprep/mcp';
import { captureHandshake, createMcpServer } from 'toolprep/mcp/server';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { type FixtureProject, mcpServerProject } from '../support/fixture-project.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * The first answers of a connection come from bytes prepared at build time (decision 0022), and
 * must be the SDK's own: the same server is run with them and with the SDK answering everything,
 * given the same messages, and must write the same bytes; then the SDK takes the connection over
 * and everything else behaves as before.
 */

const initialize = (protocolVersion: string, id: number | string = 0, extra: object = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' }, ...extra },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const list = (id: number, params?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/list',
  ...(params ? { params } : {}),
});
const ping = (id: number, params?: object) => ({
  jsonrpc: '2.0',
  id,
  method: 'ping',
  ...(params ? { params } : {}),
});
const lines = (...messages: (object | string)[]) =>
  messages.map((message) => (typeof message === 'string' ? message : JSON.stringify(message)));

const SERVERS = {
  // What a user writes: toolprep answers first, then hands over to the SDK.
  prepared: `import { serveStdio } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';
import { handlers } from './handlers.js';
await serveStdio(createToolRuntime(tools, { handlers }), JSON.parse(process.env.SERVER_INFO ?? '{"name":"first","version":"1.0.0"}'));`,
  // The same server with the SDK answering everything from the start.
  sdk: `import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from 'toolprep/mcp/server';
import { createToolRuntime } from 'toolprep/runtime';
import { tools } from './toolprep.gen.js';
import { handlers } from './handlers.js';
const runtime = createToolRuntime(tools, { handlers });
await createMcpServer(runtime, JSON.parse(process.env.SERVER_INFO ?? '{"name":"first","version":"1.0.0"}')).connect(new StdioServerTransport());`,
  handlers: `import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { tools } from './toolprep.gen.js';
export const handlers = Object.fromEntries(tools.prepared.map((tool) => [tool.name, () => tool.name + ' done']));
// Progress, then a question to the client: the SDK must know the client's capabilities from initialize.
handlers.search = async ({ query }, extra) => {
  const progressToken = extra._meta?.progressToken;
  if (progressToken !== undefined)
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 1, total: 2 } });
  const answer = await extra.sendRequest(
    { method: 'elicitation/create', params: { mode: 'form', message: 'Which ' + query + '?', requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } } } },
    ElicitResultSchema,
  );
  return 'picked ' + answer.content?.pick;
};`,
};

let project: FixtureProject;
beforeAll(async () => {
  project = await mcpServerProject('project', SERVERS);
}, 120_000);
afterAll(() => project?.remove());

/** What a server writes to stdout for these lines of stdin, line by line, sorted. */
function answers(server: 'prepared' | 'sdk', input: string[], info?: object): string[] {
  const run = spawnSync(process.execPath, [`out/${server}.js`], {
    cwd: project.dir,
    input: `${input.join('\n')}\n`,
    encoding: 'utf8',
    timeout: 20_000,
    env: { ...process.env, ...(info ? { SERVER_INFO: JSON.stringify(info) } : {}) },
  });
  // Nothing but the runtime's log of note_stats, whose handler here returns what its output schema refuses.
  expect(run.stderr.replace(/^\[toolprep\] tool "note_stats" .*\n/m, '')).toBe('');
  return run.stdout.split('\n').filter(Boolean).sort();
}

describe('over stdio, the prepared first answers are the SDK’s, byte for byte', () => {
  test('the generated module holds what the SDK answers to initialize, per protocol version, and to ping', () => {
    const module = project.read('src/toolprep.gen.ts');
    expect(module).toContain('handshake: {"initialize":{');
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) expect(module).toContain(`"${version}":`);
  });

  test.each([...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01'])(
    'initialize asking for %s, then tools/list and ping',
    (version) => {
      const input = lines(initialize(version), initialized, list(1), ping(2));
      const prepared = answers('prepared', input);
      expect(prepared).toHaveLength(3);
      expect(prepared).toEqual(answers('sdk', input));
    },
  );

  test('a name and version that JSON must escape, and a string id', () => {
    const info = { name: 'notes "ü" \u2028 \\ $& </script>', version: '1.0.0-β $1' };
    const input = lines(initialize('2025-06-18', 'first-request'), list(1));
    expect(answers('prepared', input, info)).toEqual(answers('sdk', input, info));
  });

  // Messages the prepared bytes must not answer: the SDK does, as it would have.
  test.each([
    ['a line that is not JSON', lines('{nope', initialize('2025-11-25'), list(1))],
    ['a batch', lines(`[${JSON.stringify(initialize('2025-11-25'))}]`, list(1))],
    ['initialize with _meta', lines(initialize('2025-11-25', 0, { _meta: { progressToken: 'p' } }), list(1))],
    [
      'a client with icons',
      lines({
        ...initialize('2025-11-25'),
        params: {
          ...initialize('2025-11-25').params,
          clientInfo: { name: 'c', version: '1', icons: [{ src: 'x' }] },
        },
      }),
    ],
    [
      'capabilities the SDK refuses',
      lines({
        ...initialize('2025-11-25'),
        params: { ...initialize('2025-11-25').params, capabilities: { roots: { listChanged: 'yes' } } },
      }),
    ],
    [
      'clientInfo without a version',
      lines({
        ...initialize('2025-11-25'),
        params: { ...initialize('2025-11-25').params, clientInfo: { name: 'c' } },
      }),
    ],
    ['a fractional id', lines(initialize('2025-11-25', 1.5), list(2))],
    ['a key JSON-RPC does not have', lines({ ...ping(1), extra: true }, list(2))],
    ['a second initialize', lines(initialize('2025-11-25'), list(1), initialize('2025-06-18', 2), list(3))],
    [
      'a cursor no page gave',
      lines(initialize('2025-11-25'), list(1, { cursor: 'zzz' }), list(2, { cursor: 7 })),
    ],
    ['the first page’s own cursor', lines(initialize('2025-11-25'), list(1, { cursor: 'MA' }))],
    [
      'a call before initialize, and an unknown method',
      lines(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'note_stats', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'nope' },
      ),
    ],
    ['ping with params, and with _meta', lines(ping(1, {}), ping(2, { _meta: { progressToken: 1 } }))],
    [
      'initialized with params',
      lines(initialize('2025-11-25'), { ...initialized, params: { _meta: {} } }, list(1)),
    ],
    [
      'lines ending in \\r\\n',
      [`${JSON.stringify(initialize('2025-11-25'))}\r`, `${JSON.stringify(list(1))}\r`],
    ],
  ])('%s', (_case, input) => {
    expect(answers('prepared', input)).toEqual(answers('sdk', input));
  });
});

describe('the SDK takes the connection over', () => {
  test('the official client lists, calls, is repaired and refused, gets progress, and is asked a question', async () => {
    const client = new Client({ name: 'handover', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { pick: 'the second' } };
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['out/prepared.js'],
        cwd: project.dir,
        stderr: 'pipe',
      }),
    );
    try {
      expect(client.getServerVersion()).toEqual({ name: 'first', version: '1.0.0' });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('search');
      const repaired = await client.callTool({
        name: 'tag_notes',
        arguments: { notes: JSON.stringify([{ title: 'a', tags: ['x'] }]) },
      });
      expect(repaired.content).toEqual([{ type: 'text', text: 'tag_notes done' }]);
      const refused = await client.callTool({ name: 'read_files', arguments: { paths: '["a.md","b.md"]' } });
      expect(refused.isError).toBe(true);
      const progress: number[] = [];
      const searched = await client.callTool({ name: 'search', arguments: { query: 'note' } }, undefined, {
        onprogress: ({ progress: step }) => progress.push(step),
      });
      expect(searched.content).toEqual([{ type: 'text', text: 'picked the second' }]);
      expect(progress).toEqual([1]);
      expect(asked).toEqual(['Which note?']);
    } finally {
      await client.close();
    }
  });
});

describe('over HTTP, stateless, the prepared answers are the SDK transport’s', () => {
  const readNotes = defineTool({
    description: 'Read notes.',
    input: z.object({ paths: z.array(z.string()) }),
  });
  const info = { name: 'web', version: '2.0.0' };
  let handlers: {
    prepared: (request: Request) => Promise<Response>;
    sdk: (request: Request) => Promise<Response>;
  };
  beforeAll(async () => {
    const tools = { ...prepareToolSet({ readNotes }), handshake: await captureHandshake() };
    const runtime = createToolRuntime(tools, {
      handlers: { read_notes: ({ paths }: { paths: string[] }) => paths },
    });
    handlers = {
      prepared: createMcpFetchHandler(runtime, info),
      // A server of one's own turns the prepared answers off: the SDK answers everything.
      sdk: createMcpFetchHandler(runtime, info, { server: () => createMcpServer(runtime, info) }),
    };
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    new Request('http://localhost:3000/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const seen = async (response: Response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.text(),
  });

  test.each([
    ...[...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01'].map((version): [string, () => Request] => [
      `initialize asking for ${version}`,
      () => post(initialize(version)),
    ]),
    ['tools/list', () => post(list(1), { 'mcp-protocol-version': '2025-11-25' })],
    ['tools/list without a protocol version', () => post(list(1))],
    [
      'tools/list with a protocol version the SDK does not support',
      () => post(list(1), { 'mcp-protocol-version': '1999-01-01' }),
    ],
    ['ping', () => post(ping(3))],
    ['notifications/initialized', () => post(initialized)],
    ['an Accept without event streams', () => post(list(1), { accept: 'application/json' })],
    ['a body that is not JSON', () => post('{nope')],
    ['a Content-Type that is not JSON', () => post(list(1), { 'content-type': 'text/plain' })],
    ['a batch', () => post([list(1), ping(2)])],
  ])('%s', async (_case, request) => {
    expect(await seen(await handlers.prepared(request()))).toEqual(await seen(await handlers.sdk(request())));
  });

  // Any message at all, shaped like the first ones or not: the prepared answer, when there is one,
  // is the one the SDK gives.
  const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined });
  const looseObject = fc.dictionary(
    fc.constantFrom('name', 'version', 'title', 'icons', 'listChanged', 'form', 'x'),
    fc.anything(),
  );
  const message = fc.record(
    {
      jsonrpc: fc.constantFrom('2.0', '1.0'),
      id: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null)),
      method: fc.constantFrom('initialize', 'ping', 'tools/list', 'notifications/initialized', 'tools/call'),
      params: maybe(
        fc.record(
          {
            protocolVersion: fc.oneof(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), fc.string()),
            capabilities: fc.oneof(
              fc.dictionary(
                fc.constantFrom('roots', 'sampling', 'elicitation', 'tasks', 'experimental', 'other'),
                fc.oneof(looseObject, fc.anything()),
              ),
              fc.anything(),
            ),
            clientInfo: fc.oneof(looseObject, fc.record({ name: fc.string(), version: fc.string() })),
            cursor: maybe(fc.oneof(fc.string(), fc.constant('MA'), fc.integer())),
            _meta: maybe(fc.anything()),
          },
          { requiredKeys: [] },
        ),
      ),
      extra: maybe(fc.anything()),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  );
  // Messages the prepared bytes do answer, so that the property is not met by deferring everything.
  const answerable = fc.oneof(
    fc.record({
      jsonrpc: fc.constant('2.0'),
      id: fc.oneof(fc.integer(), fc.string()),
      method: fc.constant('initialize'),
      params: fc.record({
        protocolVersion: fc.oneof(fc.constantFrom(...SUPPORTED_PROTOCOL_VERSIONS), fc.string()),
        capabilities: fc.record(
          {
            roots: fc.record({ listChanged: fc.boolean() }, { requiredKeys: [] }),
            sampling: fc.constant({}),
            elicitation: fc.constant({}),
            other: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        clientInfo: fc.record({ name: fc.string(), version: fc.string(), title: maybe(fc.string()) }),
      }),
    }),
    fc.record({
      jsonrpc: fc.constant('2.0'),
      id: fc.integer(),
      method: fc.constantFrom('ping', 'tools/list'),
    }),
  );
  test('any message: the prepared answer, when there is one, is the SDK’s (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(answerable, message), async (body) => {
        expect(await seen(await handlers.prepared(post(body)))).toEqual(
          await seen(await handlers.sdk(post(body))),
        );
      }),
      { numRuns: propertyRuns(300) },
    );
  });

  test('Node’s HTTP handler answers the same, from the same bytes', async () => {
    const tools = { ...prepareToolSet({ readNotes }), handshake: await captureHandshake() };
    const runtime = createToolRuntime(tools, {
      handlers: { read_notes: ({ paths }: { paths: string[] }) => paths },
    });
    const server = await serveHttp(runtime, info, 0);
    try {
      const address = server.address() as { port: number };
      for (const body of [initialize('2025-06-18'), list(1), ping(2)]) {
        const request = post(body);
        const fromNode = await fetch(`http://localhost:${address.port}/mcp`, {
          method: 'POST',
          headers: request.headers,
          body: JSON.stringify(body),
        });
        expect((await seen(fromNode)).body).toEqual((await seen(await handlers.sdk(post(body)))).body);
      }
    } finally {
      server.close();
    }
  });
});

test('a generated module without a handshake (a project without the SDK at build time) is served by the SDK from the start', async () => {
  const readNotes = defineTool({
    description: 'Read notes.',
    input: z.object({ paths: z.array(z.string()) }),
  });
  const runtime = createToolRuntime(prepareToolSet({ readNotes }), { handlers: { read_notes: () => 'ok' } });
  const response = await createMcpFetchHandler(runtime, { name: 'web', version: '1' })(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize('2025-11-25')),
    }),
  );
  expect(await response.json()).toMatchObject({ result: { serverInfo: { name: 'web' } } });
});
