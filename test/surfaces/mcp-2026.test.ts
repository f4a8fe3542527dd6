import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { type McpToolContext, serveHttp } from 'toolprep/mcp';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * MCP 2026-07-28 from toolprep's own servers: the official SDK v2 client negotiates it (no fallback
 * to 2025), and each rule of the revision's envelope is answered as the specification says, over
 * Node's HTTP and the fetch handler alike.
 */

const LIST = 'paths is a list written as text — pass the array itself, not JSON written as text';
const VERSION = '2026-07-28';
const KEY = 'a shared secret of thirty-two characters or more';

const tagNotes = defineTool({
  description: 'Set the tags of several notes at once.',
  input: z.object({ notes: z.array(z.object({ title: z.string(), tags: z.array(z.string()) })) }),
});
const deleteNotes = defineTool({
  description: 'Delete one note or several.',
  input: z.object({ paths: z.union([z.string(), z.array(z.string())]) }),
  annotations: { destructiveHint: true },
});
const deploy = defineTool({
  description: 'Deploy to a region.',
  input: z.object({ region: z.string(), replicas: z.number().int().optional() }),
  headers: { region: 'Region', replicas: 'Replicas' },
});
const report = defineTool({
  description: 'Write a report, with progress and logs.',
  input: z.object({ steps: z.number().int().min(1).max(5) }),
});

let deleted: string[] = [];
const handlers = {
  deploy: ({ region, replicas = 1 }: { region: string; replicas?: number }) => `${replicas} in ${region}`,
  tag_notes: ({ notes }: { notes: { title: string }[] }) =>
    `tagged ${notes.map((note) => note.title).join(', ')}`,
  // Asks before deleting: on 2026-07-28 an input-required result, and the retry runs this again.
  delete_notes: async ({ paths }: { paths: string | string[] }, context: McpToolContext) => {
    const notes = [paths].flat();
    const answer = await context.elicit({
      message: `Delete ${notes.join(', ')}?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean' } },
        required: ['confirm'],
      },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'kept them';
    deleted.push(...notes);
    return `deleted ${notes.length}`;
  },
  report: async ({ steps }: { steps: number }, context: McpToolContext) => {
    for (let step = 1; step <= steps; step++) {
      await context.progress(step, steps, `step ${step}`);
      await context.log('info', `step ${step} done`);
    }
    return `${steps} steps`;
  },
};
const runtime = createToolRuntime(prepareToolSet({ tagNotes, deleteNotes, report, deploy }), { handlers });
const info = { name: 'notes', version: '1.0.0' };

let url: string;
let close: () => void;
beforeAll(async () => {
  const server = await serveHttp(runtime, info, 0, { requestState: { key: KEY } });
  url = `http://localhost:${(server.address() as AddressInfo).port}/mcp`;
  close = () => server.close();
});
afterAll(() => close?.());

const meta = (capabilities: object = {}, extra: object = {}) => ({
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  ...extra,
});

interface Raw {
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
  readonly json: () => Record<string, unknown> & {
    result?: Record<string, unknown>;
    error?: Record<string, unknown>;
  };
}

/** One POST as a 2026-07-28 client sends it; `headers` replace the standard ones. */
async function post(
  method: string,
  params: Record<string, unknown> = {},
  {
    headers = {},
    id = 1,
    body,
  }: { headers?: Record<string, string | undefined>; id?: number; body?: string } = {},
): Promise<Raw> {
  const standard: Record<string, string | undefined> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
    ...headers,
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: Object.fromEntries(
      Object.entries(standard).filter(([, value]) => value !== undefined),
    ) as Record<string, string>,
    body: body ?? JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: meta(), ...params } }),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    json: () => JSON.parse(text),
  };
}

function v2Client(capabilities: object = { elicitation: { form: {} } }): Client {
  const client = new Client(
    { name: 'test', version: '1.0.0' },
    { capabilities, versionNegotiation: { mode: { pin: VERSION } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  return client;
}

describe('the official SDK v2 client over Streamable HTTP', () => {
  test('negotiates 2026-07-28, lists the prepared tools, gets a repaired call, a refused list and an elicitation round trip', async () => {
    const client = v2Client();
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(runtime.list().map((tool) => tool.name));

      const repaired = await client.callTool({
        name: 'tag_notes',
        arguments: { notes: JSON.stringify([{ title: 'a', tags: JSON.stringify(['x']) }]) },
      });
      expect(repaired).toMatchObject({ content: [{ type: 'text', text: 'tagged a' }] });

      const refused = await client.callTool({
        name: 'delete_notes',
        arguments: { paths: '["a.md","b.md"]' },
      });
      expect(refused).toMatchObject({ isError: true, content: [{ type: 'text', text: LIST }] });

      deleted = [];
      const asked = await client.callTool({ name: 'delete_notes', arguments: { paths: ['a.md', 'b.md'] } });
      expect(asked).toMatchObject({ content: [{ type: 'text', text: 'deleted 2' }] });
      expect(deleted).toEqual(['a.md', 'b.md']);

      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
        /Unknown tool "no_such_tool"/,
      );
    } finally {
      await client.close();
    }
  });
});

describe('2026-07-28 on the wire', () => {
  test('server/discover and tools/list answer prepared text with resultType, caching hints and serverInfo', async () => {
    const discover = await post('server/discover');
    expect(discover.status).toBe(200);
    expect(discover.json().result).toEqual({
      resultType: 'complete',
      supportedVersions: [VERSION],
      capabilities: { tools: {}, logging: {} },
      ttlMs: 300_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': info },
    });
    const list = await post('tools/list');
    const tools = runtime.list().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema.mcp,
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
    }));
    // The tools as the prepared documents' own text: nothing re-serialised them in another order.
    expect(list.text).toContain(`"tools":${JSON.stringify(tools)}`);
    expect(list.json().result).toMatchObject({
      resultType: 'complete',
      ttlMs: 300_000,
      cacheScope: 'public',
    });
    expect((await post('tools/list', {}, { id: 2 })).text).toBe(list.text.replace('"id":1', '"id":2'));
  });

  test.each([
    [
      'no _meta',
      { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }) },
      400,
      -32602,
    ],
    [
      'no client capabilities',
      {
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/list',
          params: { _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } },
        }),
      },
      400,
      -32602,
    ],
    ['a Mcp-Method that is not the body’s', { headers: { 'mcp-method': 'tools/call' } }, 400, -32020],
    ['no Mcp-Method', { headers: { 'mcp-method': undefined } }, 400, -32020],
    [
      'an MCP-Protocol-Version that is not _meta’s',
      { headers: { 'mcp-protocol-version': '2026-12-31' } },
      400,
      -32020,
    ],
  ])(
    '%s: the error the specification names, with the request id kept',
    async (_case, request, status, code) => {
      const answer = await post('tools/list', {}, { ...request, id: 7 });
      expect(answer.status).toBe(status);
      expect(answer.json()).toMatchObject({ id: 7, error: { code } });
    },
  );

  test('an unsupported version is -32022 with the supported ones; a removed method is -32601 and 404; GET is 405', async () => {
    const unsupported = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': '2099-01-01',
        'mcp-method': 'tools/list',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/list',
        params: { _meta: { ...meta(), 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      }),
    });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toMatchObject({
      id: 3,
      error: { code: -32022, data: { supported: [VERSION], requested: '2099-01-01' } },
    });
    for (const method of ['ping', 'initialize', 'logging/setLevel', 'resources/subscribe']) {
      const removed = await post(method);
      expect([method, removed.status]).toEqual([method, 404]);
      expect(removed.json()).toMatchObject({ id: 1, error: { code: -32601 } });
    }
    const get = await fetch(url, { headers: { 'mcp-protocol-version': VERSION } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  test('Mcp-Name is checked against the tool called, base64 included', async () => {
    const call = { name: 'tag_notes', arguments: { notes: [] } };
    expect(
      (await post('tools/call', call, { headers: { 'mcp-name': 'delete_notes' } })).json(),
    ).toMatchObject({
      error: { code: -32020 },
    });
    const encoded = `=?base64?${btoa('tag_notes')}?=`;
    expect((await post('tools/call', call, { headers: { 'mcp-name': encoded } })).json()).toMatchObject({
      result: { resultType: 'complete', content: [{ text: 'tagged ' }] },
    });
  });

  test.each([
    ['the mirrored header', { 'mcp-param-region': 'eu-west-1' }, { region: 'eu-west-1' }, 'complete'],
    [
      'the header in base64',
      { 'mcp-param-region': `=?base64?${btoa('eu-west-1')}?=` },
      { region: 'eu-west-1' },
      'complete',
    ],
    [
      'an integer compared by value',
      { 'mcp-param-region': 'eu', 'mcp-param-replicas': '3' },
      { region: 'eu', replicas: 3 },
      'complete',
    ],
    ['no header for an argument sent', {}, { region: 'eu' }, -32020],
    ['a header that is not the argument', { 'mcp-param-region': 'us-east-1' }, { region: 'eu' }, -32020],
    [
      'a header for an argument not sent',
      { 'mcp-param-region': 'eu', 'mcp-param-replicas': '2' },
      { region: 'eu' },
      -32020,
    ],
    ['invalid base64', { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }, { region: 'Hello' }, -32020],
  ])(
    'Mcp-Param-* headers are checked against the arguments they mirror: %s',
    async (_case, headers, args, expected) => {
      const answer = await post('tools/call', { name: 'deploy', arguments: args }, { headers });
      if (expected === 'complete') expect(answer.json().result).toMatchObject({ resultType: 'complete' });
      else {
        expect(answer.status).toBe(400);
        expect(answer.json()).toMatchObject({
          error: { code: expected, message: expect.stringMatching(/^Header mismatch: .*Mcp-Param-/) },
        });
      }
    },
  );

  test('the prepared document carries the annotation', async () => {
    const list = (await post('tools/list')).json().result as {
      tools: { name: string; inputSchema: { properties: Record<string, object> } }[];
    };
    const listed = list.tools.find((tool) => tool.name === 'deploy');
    expect(listed?.inputSchema.properties.region).toEqual({ type: 'string', 'x-mcp-header': 'Region' });
  });

  test('a question the client cannot answer is -32021 naming the capability; a tampered or foreign requestState is refused', async () => {
    const call = { name: 'delete_notes', arguments: { paths: 'a.md' } };
    const missing = await post('tools/call', call);
    expect(missing.status).toBe(400);
    expect(missing.json()).toMatchObject({
      error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
    });

    const asking = { ...call, _meta: meta({ elicitation: {} }) };
    const first = (await post('tools/call', asking)).json().result as {
      resultType: string;
      inputRequests: Record<string, { method: string }>;
      requestState: string;
    };
    expect(first.resultType).toBe('input_required');
    expect(Object.values(first.inputRequests)).toMatchObject([{ method: 'elicitation/create' }]);
    const [key] = Object.keys(first.inputRequests);
    const inputResponses = { [key as string]: { action: 'accept', content: { confirm: true } } };

    const [body, signature] = first.requestState.split('.') as [string, string];
    const tampered = `${body.slice(0, -2)}${body.endsWith('A') ? 'B' : 'A'}${body.slice(-1)}.${signature}`;
    for (const [requestState, params] of [
      [tampered, asking],
      // Another call's state: the same question about other notes.
      [first.requestState, { ...asking, arguments: { paths: 'b.md' } }],
    ] as const) {
      const refused = await post('tools/call', { ...params, inputResponses, requestState });
      expect(refused.json()).toMatchObject({
        error: { code: -32602, message: expect.stringMatching(/^requestState refused: /) },
      });
    }
    deleted = [];
    const retried = await post('tools/call', { ...asking, inputResponses, requestState: first.requestState });
    expect(retried.json().result).toMatchObject({ resultType: 'complete', content: [{ text: 'deleted 1' }] });
    expect(deleted).toEqual(['a.md']);
  });

  test('progress and logs go on the request’s own stream, and logs only when it asks for a level', async () => {
    const streamed = await post('tools/call', {
      name: 'report',
      arguments: { steps: 2 },
      _meta: meta({}, { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'info' }),
    });
    expect(streamed.contentType).toBe('text/event-stream');
    const events = streamed.text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(events.map((event) => event.method ?? 'result')).toEqual([
      'notifications/progress',
      'notifications/message',
      'notifications/progress',
      'notifications/message',
      'result',
    ]);
    expect(events[0].params).toEqual({ progressToken: 'p1', progress: 1, total: 2, message: 'step 1' });
    const quiet = await post('tools/call', { name: 'report', arguments: { steps: 2 } });
    expect(quiet.contentType).toBe('application/json');
    expect(quiet.json().result).toMatchObject({ content: [{ text: '2 steps' }] });
  });

  test('a body over the limit is 413, refused before it is read whole', async () => {
    const big = await post(
      'tools/list',
      {},
      {
        body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"${'x'.repeat(5 * 1024 * 1024)}"}}`,
      },
    );
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({
      error: { message: 'Payload Too Large: Request body must not exceed 4194304 bytes' },
    });
  });

  test('the fetch handler answers the same bytes as the Node handler', async () => {
    const handle = createMcpFetchHandler(runtime, info, { requestState: { key: KEY } });
    for (const method of ['server/discover', 'tools/list', 'ping']) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { _meta: meta() } });
      const headers = {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': method,
      };
      const web = await handle(new Request('http://localhost/mcp', { method: 'POST', headers, body }));
      const node = await post(method);
      expect([method, web.status, await web.text()]).toEqual([method, node.status, node.text]);
    }
  });
});
