import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpHttpOptions } from 'toolprep/mcp';
import { captureHandshake } from 'toolprep/mcp/server';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { afterAll, describe, expect, test } from 'vitest';
import { viewRuntime, viewToolSet } from '../support/view-tool-set.js';

/**
 * Views (MCP Apps) behind `auth` (decision 0054), read with the official SDK clients on both
 * eras: a caller gets the views of its own tools only, in `resources/list`, `resources/read` (every
 * version kept, another tool's refused as no resource) and the tools' `_meta.ui`. And a 2025
 * `initialize` of a runtime with views and a captured handshake announces the resources the views
 * are read from, the first answers being the SDK's (decision 0058).
 */

const UI = 'io.modelcontextprotocol/ui';
const UI_CAPABILITIES = { extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } };
const info = { name: 'views', version: '1.0.0' };
const origins = { api: 'https://api.example.com', cdn: 'https://cdn.example.com' };
const html = {
  forecast: '<!doctype html><html><body>forecast</body></html>',
  gallery: '<!doctype html><html><body>gallery</body></html>',
  todo: '<!doctype html><html><body>todo</body></html>',
};
const SCOPES: Record<string, string[]> = {
  weather: ['weather'],
  gallery: ['photos'],
  todo_list: ['todo'],
  todo_add: ['todo'],
};
const handshake = await captureHandshake();
const runtime = viewRuntime(html, origins, (toolSet) => ({
  ...toolSet,
  prepared: toolSet.prepared.map((tool) => ({ ...tool, access: { scopes: SCOPES[tool.name] } })),
  handshake,
}));
const views = viewToolSet(html, origins).views ?? [];
const RESOURCE = 'http://localhost/mcp';
const auth: McpHttpOptions['auth'] = {
  // Tokens this verifier reads: `subject~scope+scope`.
  verify: async (token) => {
    const [subject = '', scopes = ''] = token.split('~');
    return { subject, scopes: scopes.split('+').filter(Boolean) };
  },
  resourceMetadata: { resource: RESOURCE, authorizationServers: ['http://localhost'] },
};

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** A fetch into a handler, with the caller's token when there is one. */
function fetchOf(handle: (request: Request) => Promise<Response>, token?: string) {
  return (url: string | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    if (token) headers.set('authorization', `Bearer ${token}`);
    return handle(new Request(url, { ...init, headers }));
  };
}

interface Reader {
  listTools(): Promise<{ tools: { name: string; _meta?: Record<string, unknown> }[] }>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: { uri: string; text?: unknown }[] }>;
}

async function modernClient(
  handle: (request: Request) => Promise<Response>,
  token?: string,
): Promise<Reader> {
  const client = new Client(info, { capabilities: UI_CAPABILITIES, versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(RESOURCE), { fetch: fetchOf(handle, token) }),
  );
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  closers.push(() => client.close());
  return client;
}

async function legacyClient(handle: (request: Request) => Promise<Response>, token?: string) {
  const client = new ClientV1(info, { capabilities: UI_CAPABILITIES });
  await client.connect(new TransportV1(new URL(RESOURCE), { fetch: fetchOf(handle, token) }));
  closers.push(() => client.close());
  return client;
}

const stateless = createMcpFetchHandler(runtime, info, { auth });
const sessions = createMcpFetchHandler(runtime, info, { auth, sessions: true });
const eras: Record<string, (token: string) => Promise<Reader>> = {
  '2026-07-28 (SDK v2)': (token) => modernClient(stateless, token),
  '2025, stateless (SDK v1)': (token) => legacyClient(stateless, token),
  '2025, a session (SDK v1)': (token) => legacyClient(sessions, token),
};
/** Each caller, the tools it may call, and so the views it may read. */
const callers: [string, string[], string[]][] = [
  ['ann~todo', ['todo_add', 'todo_list'], ['todo']],
  ['bob~photos+weather', ['gallery', 'weather'], ['forecast', 'gallery']],
];

describe.each(Object.entries(eras))('behind auth: %s', (_era, connect) => {
  test.each(callers)('%s gets the views of its own tools only', async (token, tools, own) => {
    const client = await connect(token);
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(tools);
    const { resources } = await client.listResources();
    const current = views.filter((view) => view.current && own.includes(view.name)).map((view) => view.uri);
    expect(resources.map((resource) => resource.uri).sort()).toEqual(current.sort());
    for (const tool of listed.tools)
      expect(current).toContain((tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri);
    for (const view of views) {
      const read = client.readResource({ uri: view.uri });
      if (own.includes(view.name))
        expect((await read).contents).toMatchObject([{ uri: view.uri, text: await view.html() }]);
      else await expect(read).rejects.toThrow(/Resource not found/);
    }
  });
});

test('a caller with no tool of a view lists none on 2026-07-28; on 2025 it is announced no resources', async () => {
  const modern = await modernClient(stateless, 'eve~unrelated');
  expect(await modern.listResources()).toMatchObject({ resources: [] });
  await expect(modern.readResource({ uri: views[0]?.uri as string })).rejects.toThrow(/Resource not found/);
  for (const handle of [stateless, sessions]) {
    const legacy = await legacyClient(handle, 'eve~unrelated');
    expect(legacy.getServerCapabilities()).not.toHaveProperty('resources');
    await expect(legacy.listResources()).rejects.toThrow(/Method not found/);
  }
});

describe("a 2025 initialize of a runtime with views and the build's handshake", () => {
  const open = viewRuntime(html, origins, (toolSet) => ({ ...toolSet, handshake }));
  const handlers: Record<string, [(request: Request) => Promise<Response>, string | undefined]> = {
    stateless: [createMcpFetchHandler(open, info), undefined],
    'a session': [createMcpFetchHandler(open, info, { sessions: true }), undefined],
    'behind auth': [stateless, 'ann~todo'],
  };
  test.each(Object.entries(handlers))(
    '%s: announces the resources, then lists them',
    async (_name, [handle, token]) => {
      const client = await legacyClient(handle, token);
      expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
      const { resources } = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
      for (const { uri } of resources) expect(views.map((view) => view.uri)).toContain(uri);
    },
  );
});
