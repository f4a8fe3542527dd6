import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ElicitRequestSchema,
  ElicitResultSchema,
  ListResourcesRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { type McpHttpOptions, type McpSessionOptions, serveHttp } from 'toolprep/mcp';
import { attachTools, captureHandshake } from 'toolprep/mcp/server';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * Over HTTP, a handler's notifications reach the client: a request that asks for progress is
 * answered by a stream; with sessions, a handler can ask the client something and wait; and the
 * HTTP helpers serve the user's own server, with more than tools. The tools carry the handshake
 * a build captures, so `initialize` and `tools/list` come from the prepared bytes where they can.
 */
type Extra = {
  sendNotification(notification: object): Promise<void>;
  sendRequest(request: object, schema: typeof ElicitResultSchema): Promise<{ content?: { pick?: string } }>;
  _meta?: { progressToken?: string | number };
};
const count = defineTool({ description: 'Count to three.', input: z.object({}) });
const choose = defineTool({ description: 'Ask the user which note.', input: z.object({}) });
const tools = { ...prepareToolSet({ count, choose }), handshake: await captureHandshake() };
const runtime = createToolRuntime(tools, {
  handlers: {
    choose: async (_args: unknown, context: unknown) => {
      const answer = await (context as Extra).sendRequest(
        {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Which note?',
            requestedSchema: { type: 'object', properties: { pick: { type: 'string' } } },
          },
        },
        ElicitResultSchema,
      );
      return `picked ${answer.content?.pick}`;
    },
    count: async (_args: unknown, context: unknown) => {
      const { sendNotification, _meta } = context as Extra;
      for (let step = 1; step <= 3; step++)
        if (_meta?.progressToken !== undefined)
          await sendNotification({
            method: 'notifications/progress',
            params: { progressToken: _meta.progressToken, progress: step, total: 3 },
          });
      return 'three';
    },
  },
});

/** The official client, with elicitation, over Node's HTTP helper with these options. */
async function withClient(options: McpHttpOptions, use: (client: Client) => Promise<void>): Promise<void> {
  const server = await serveHttp(runtime, { name: 'test', version: '1.0.0' }, 0, options);
  const { port } = server.address() as AddressInfo;
  try {
    await connected(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)), use);
  } finally {
    server.close();
  }
}

async function connected(transport: StreamableHTTPClientTransport, use: (client: Client) => Promise<void>) {
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { pick: 'b.md' },
  }));
  try {
    await client.connect(transport);
    await use(client);
  } finally {
    await client.close();
  }
}

test.each<[string, McpHttpOptions, number[]]>([
  ['by default, a call that asks for progress is answered by a stream with its notifications', {}, [1, 2, 3]],
  ['answers as JSON when told to: the notifications cannot travel', { responses: 'json' }, []],
])('%s', async (_case, options, expected) => {
  await withClient(options, async (client) => {
    const progress: number[] = [];
    const result = await client.callTool({ name: 'count', arguments: {} }, undefined, {
      onprogress: ({ progress: step }) => progress.push(step),
    });
    expect(result.content).toEqual([{ type: 'text', text: 'three' }]);
    expect(progress).toEqual(expected);
  });
});

test("the user's own server, with resources beside the tools, through the same helper", async () => {
  const own = () => {
    const server = new Server({ name: 'own', version: '1.0.0' }, { capabilities: { resources: {} } });
    server.setRequestHandler(ListResourcesRequestSchema, () => ({
      resources: [{ uri: 'file:///notes/a.md', name: 'a.md' }],
    }));
    return attachTools(server, runtime);
  };
  await withClient({ server: own }, async (client) => {
    expect((await client.listResources()).resources).toEqual([{ uri: 'file:///notes/a.md', name: 'a.md' }]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['count', 'choose']);
    expect(client.getServerVersion()?.name).toBe('own');
  });
});

describe('with sessions', () => {
  test('Node: a handler asks the client something and gets its answer', async () => {
    await withClient({ sessions: true }, async (client) => {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['count', 'choose']);
      const result = await client.callTool({ name: 'choose', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'picked b.md' }]);
    });
  });

  test('web-standard: the same, with progress, and the session ended by the client', async () => {
    const handle = createMcpFetchHandler(runtime, { name: 'web', version: '1.0.0' }, { sessions: true });
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: (url, init) => handle(new Request(url, init)),
    });
    await connected(transport, async (client) => {
      expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect((await client.callTool({ name: 'choose', arguments: {} })).content).toEqual([
        { type: 'text', text: 'picked b.md' },
      ]);
      const progress: number[] = [];
      await client.callTool({ name: 'count', arguments: {} }, undefined, {
        onprogress: ({ progress: step }) => progress.push(step),
      });
      expect(progress).toEqual([1, 2, 3]);
      const session = transport.sessionId as string;
      await transport.terminateSession();
      const afterwards = await handle(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-session-id': session,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
        }),
      );
      expect(afterwards.status).toBe(404);
    });
  });

  test('a request that names no session, and is no initialize, is refused with 400', async () => {
    const handle = createMcpFetchHandler(runtime, { name: 'web', version: '1.0.0' }, { sessions: true });
    const response = await handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 400,
      body: {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
        id: null,
      },
    });
  });

  /** Raw requests to a fetch handler with these session options, and the `initialize` that opens one. */
  const raw = (sessions: McpSessionOptions) => {
    const handle = createMcpFetchHandler(runtime, { name: 'web', version: '1.0.0' }, { sessions });
    const request = (body: object, session?: string) =>
      handle(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-06-18',
            ...(session ? { 'mcp-session-id': session } : {}),
          },
          body: JSON.stringify(body),
        }),
      );
    const open = async (capabilities = {}) => {
      const clientInfo = { name: 'raw', version: '1' };
      const params = { protocolVersion: '2025-06-18', capabilities, clientInfo };
      const response = await request({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
      await response.text();
      return { status: response.status, session: response.headers.get('mcp-session-id') as string };
    };
    const list = async (session: string) => {
      const response = await request({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session);
      await response.text();
      return response.status;
    };
    return { request, open, list };
  };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test('an idle session is closed and then answers 404; past maxSessions in use a new one is refused with 503', async () => {
    const { open, list } = raw({ idleMs: 150, maxSessions: 1 });
    const first = await open();
    expect(first.session).toMatch(/^[0-9a-f-]{36}$/);
    expect(await list(first.session)).toBe(200);
    const full = await open();
    expect(full.status).toBe(503);
    // Used within the idle time, it lives on; left alone longer, it is closed.
    await pause(100);
    expect(await list(first.session)).toBe(200);
    await pause(300);
    expect(await list(first.session)).toBe(404);
    expect((await open()).status).toBe(200);
  });

  test('a session that makes no request after initialize is closed after unusedMs; notifications do not count', async () => {
    const { request, open, list } = raw({ unusedMs: 50 });
    const [idle, busy] = [await open(), await open()];
    await request({ jsonrpc: '2.0', method: 'notifications/initialized' }, idle.session);
    expect(await list(busy.session)).toBe(200);
    await pause(150);
    expect(await list(idle.session)).toBe(404);
    expect(await list(busy.session)).toBe(200);
  });

  test('at maxSessions, the least recently used session idle for unusedMs makes room for a new one', async () => {
    const { open, list } = raw({ maxSessions: 2, unusedMs: 50 });
    const [older, newer] = [await open(), await open()];
    expect(await list(older.session)).toBe(200);
    expect(await list(newer.session)).toBe(200);
    await pause(100);
    expect(await list(newer.session)).toBe(200);
    expect((await open()).status).toBe(200);
    expect(await list(older.session)).toBe(404);
    expect(await list(newer.session)).toBe(200);
  });

  test('a session whose call is still being answered is not closed to make room', async () => {
    const { request, open } = raw({ maxSessions: 1, unusedMs: 50 });
    const asking = await open({ elicitation: {} });
    // `choose` asks the client and waits: its answer stays open while the question is unanswered.
    const call = await request(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'choose', arguments: {} } },
      asking.session,
    );
    const reader = (call.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('elicitation/create');
    await pause(100);
    expect((await open()).status).toBe(503);
    await reader.cancel();
  });

  test('one client opening 1,001 sessions it never uses cannot keep a new client out (the defaults)', async () => {
    const handle = createMcpFetchHandler(runtime, { name: 'web', version: '1.0.0' }, { sessions: true });
    const fetchHere = (url: string | URL, init?: RequestInit) => handle(new Request(url, init));
    const flood: Client[] = [];
    try {
      for (let opened = 0; opened < 1001; opened++) {
        const client = new Client({ name: 'flood', version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: fetchHere }),
        );
        flood.push(client);
      }
      const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
        fetch: fetchHere,
      });
      await connected(transport, async (client) => {
        expect((await client.callTool({ name: 'count', arguments: {} })).content).toEqual([
          { type: 'text', text: 'three' },
        ]);
      });
      // The oldest unused sessions made room: the first flooding client's session is gone, the last lives.
      await expect((flood[0] as Client).listTools()).rejects.toThrow(/404|Session not found/);
      expect((await (flood[1000] as Client).listTools()).tools).toHaveLength(2);
    } finally {
      await Promise.all(flood.map((client) => client.close()));
    }
  });
});
