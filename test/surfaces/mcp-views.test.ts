import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpHandler, McpServer, Server } from '@modelcontextprotocol/server';
import { serveHttp } from 'toolprep/mcp';
import { attachTools as attachToolsV1 } from 'toolprep/mcp/server';
import { attachTools, featureHandler } from 'toolprep/mcp/v2';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { modernRequest } from '../support/modern-request.js';
import { OLD_FORECAST_HTML, viewRuntime, viewToolSet } from '../support/view-tool-set.js';

/**
 * Views (MCP Apps) served from the manifest's bytes (decision 0058), read with the official SDK v2
 * and v1 clients on both eras: `resources/list` and `resources/read` with the mime type and the
 * same `_meta.ui` on the entry and the content, an older version readable but not listed, the
 * tools list with `_meta.ui` for a client that declares `io.modelcontextprotocol/ui` and without
 * (nor the app-only tool) for one that does not, and the user's own resources beside the views.
 */

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const UI_CAPABILITIES = { extensions: { [UI]: { mimeTypes: [MIME] } } };
const origins = { api: 'https://api.example.com', cdn: 'https://cdn.example.com' };
const html = {
  forecast: '<!doctype html><html><body>forecast</body></html>',
  gallery: '<!doctype html><html><body>gallery</body></html>',
  todo: '<!doctype html><html><body>todo</body></html>',
};
const toolSet = viewToolSet(html, origins);
const views = toolSet.views ?? [];
const current = views.filter((view) => view.current);
const older = views.find((view) => !view.current);
const runtime = viewRuntime(html, origins);
const info = { name: 'views', version: '1.0.0' };
const ALL_TOOLS = ['gallery', 'todo_add', 'todo_list', 'weather'];
const MODEL_TOOLS = ['gallery', 'todo_list', 'weather'];

/** What hosts read of a view, on the list entry and on the content alike. */
function uiOf(name: string): Record<string, unknown> {
  return {
    forecast: { csp: { connectDomains: [origins.api] } },
    gallery: { csp: { resourceDomains: [origins.cdn] }, prefersBorder: true },
    todo: { csp: {}, permissions: { clipboardWrite: {} } },
  }[name] as Record<string, unknown>;
}

const closers: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of closers) await close();
});

async function listen(options: Parameters<typeof serveHttp>[3] = {}): Promise<URL> {
  const server = await serveHttp(runtime, info, 0, options);
  closers.push(
    () => server.closeAllConnections(),
    () => server.close(),
  );
  return new URL(`http://localhost:${(server.address() as AddressInfo).port}/mcp`);
}

async function v2Client(url: URL, capabilities: object): Promise<Client> {
  const client = new Client(info, { capabilities, versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(url));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  closers.push(() => client.close());
  return client;
}

async function v1Client(url: URL, capabilities: object): Promise<ClientV1> {
  const client = new ClientV1(info, { capabilities });
  await client.connect(new TransportV1(url));
  closers.push(() => client.close());
  return client;
}

/** What the tests ask of a client of either SDK. */
interface Lister {
  listTools(): Promise<{ tools: { name: string; _meta?: Record<string, unknown> }[] }>;
  listResources(): Promise<{ resources: { uri: string; [key: string]: unknown }[] }>;
  readResource(params: { uri: string }): Promise<{ contents: Record<string, unknown>[] }>;
}

let stateless: URL;
let sessions: URL;
let handedOver: URL;
beforeAll(async () => {
  stateless = await listen();
  sessions = await listen({ sessions: true });
  // The user's servers, with a resource of their own: SDK v2 for 2026-07-28, SDK v1 for 2025.
  const ownV2 = () => {
    const server = new McpServer(info);
    server.registerResource('readme', 'notes://readme', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, text: 'read me' }],
    }));
    return server;
  };
  const ownV1 = () => {
    const server = new McpServerV1(info);
    server.registerResource('readme', 'notes://readme', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, text: 'read me' }],
    }));
    return attachToolsV1(server, runtime).server;
  };
  handedOver = await listen({ modernFeatures: featureHandler(runtime, ownV2), server: ownV1 });
});

/** The clients of each era that declare the ui extension, by name. */
const rendering: Record<string, () => Promise<Lister>> = {
  '2026-07-28 (SDK v2)': () => v2Client(stateless, UI_CAPABILITIES),
  '2025, stateless (SDK v1)': () => v1Client(stateless, UI_CAPABILITIES),
  '2025, a session (SDK v1)': () => v1Client(sessions, UI_CAPABILITIES),
};

describe.each(Object.entries(rendering))('a host that renders views: %s', (_era, connect) => {
  test('the tools list links each tool to its view, the app-only one too', async () => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
    for (const tool of tools) {
      const link = toolSet.prepared.find((prepared) => prepared.name === tool.name)?.view;
      expect(tool._meta).toMatchObject({ ui: link, 'ui/resourceUri': link?.resourceUri });
    }
    expect(tools.find((tool) => tool.name === 'todo_add')?._meta?.ui).toEqual({
      resourceUri: current.find((view) => view.name === 'todo')?.uri,
      visibility: ['app'],
    });
  });

  test('resources/list: each current view, with its mime type and _meta.ui; no older version', async () => {
    const { resources } = await (await connect()).listResources();
    expect(resources).toEqual(
      current.map((view) => ({
        uri: view.uri,
        name: view.name,
        mimeType: MIME,
        size: view.bytes,
        _meta: { ui: uiOf(view.name) },
      })),
    );
  });

  test('resources/read: each view as the build wrote it, the same _meta.ui, its digest', async () => {
    const client = await connect();
    for (const view of current) {
      const { contents } = await client.readResource({ uri: view.uri });
      expect(contents).toEqual([
        {
          uri: view.uri,
          mimeType: MIME,
          text: html[view.name as keyof typeof html],
          _meta: { ui: uiOf(view.name), etag: view.digest },
        },
      ]);
    }
  });

  test('an older version stays readable; a URI that is no view is refused (-32602 on 2026-07-28, -32002 on 2025)', async () => {
    const client = await connect();
    const { contents } = await client.readResource({ uri: older?.uri as string });
    expect(contents[0]).toMatchObject({ text: OLD_FORECAST_HTML, mimeType: MIME });
    await expect(client.readResource({ uri: 'ui://forecast/0000000000000000.html' })).rejects.toThrow(
      /Resource not found/,
    );
  });
});

/** Clients that declare no ui extension, where the server can know it. */
const plain: Record<string, () => Promise<Lister>> = {
  '2026-07-28 (SDK v2)': () => v2Client(stateless, {}),
  '2026-07-28, another mime type only': () =>
    v2Client(stateless, { extensions: { [UI]: { mimeTypes: ['text/html+skybridge'] } } }),
  '2025, a session (SDK v1)': () => v1Client(sessions, {}),
};

test.each(Object.entries(plain))(
  'a client that renders no view: no _meta.ui, no app-only tool (%s)',
  async (_era, connect) => {
    const { tools } = await (await connect()).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(MODEL_TOOLS);
    for (const tool of tools) expect(tool._meta ?? {}).not.toHaveProperty('ui');
    for (const tool of tools) expect(tool._meta ?? {}).not.toHaveProperty('ui/resourceUri');
  },
);

test('a 2025 stateless request brings no capabilities: the list with the views', async () => {
  const { tools } = await (await v1Client(stateless, {})).listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
});

test.each(Object.entries(plain))(
  'a client that renders no view calls the app-only tool as one it does not have (%s)',
  async (_era, connect) => {
    const client = (await connect()) as unknown as Pick<Client, 'callTool'>;
    await expect(client.callTool({ name: 'todo_add', arguments: { item: 'sneaked in' } })).rejects.toThrow(
      /Unknown tool "todo_add"/,
    );
  },
);

test('a host calls the app-only tool as any other (the host lets only its view call it)', async () => {
  const result = await (await v2Client(stateless, UI_CAPABILITIES)).callTool({
    name: 'todo_add',
    arguments: { item: 'buy bread' },
  });
  expect(result.structuredContent).toEqual({ items: ['water the plants', 'buy bread'] });
});

test('2026-07-28 over HTTP: resources/read carries the digest as its ETag, kept a year; If-None-Match changes nothing', async () => {
  const handle = createMcpFetchHandler(runtime, info);
  const view = current[0];
  const method = 'resources/read';
  // A POST must be answered with JSON or a stream (no 304), and RFC 9110 would make a matched
  // If-None-Match on a POST a 412, which no MCP client reads: the condition is not evaluated.
  const response = await handle(
    modernRequest('http://localhost/mcp', method, { uri: view?.uri }, UI_CAPABILITIES, {
      'mcp-name': view?.uri as string,
      'if-none-match': `"${view?.digest}"`,
    }),
  );
  expect(response.status).toBe(200);
  expect(response.headers.get('etag')).toBe(`"${view?.digest}"`);
  const { result } = (await response.json()) as { result: { contents: { text: string }[]; ttlMs: number } };
  expect(result.contents[0]?.text).toBe(html.forecast);
  // The answer at a view's URI never changes: a client keeps it a year rather than asking again.
  expect(result.ttlMs).toBe(31_536_000_000);
});

test('a low-level SDK v2 Server reads a view with the year-long ttlMs on 2026-07-28, and none on 2025', async () => {
  const handler = createMcpHandler(() => attachTools(new Server(info, { capabilities: {} }), runtime));
  closers.push(() => handler.close());
  const fetch = (url: string | URL, init?: RequestInit) => handler.fetch(new Request(url, init));
  const url = new URL('http://localhost/mcp');
  const modern = new Client(info, { capabilities: UI_CAPABILITIES, versionNegotiation: { mode: 'auto' } });
  await modern.connect(new StreamableHTTPClientTransport(url, { fetch }));
  closers.push(() => modern.close());
  expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  const legacy = new ClientV1(info, { capabilities: UI_CAPABILITIES });
  await legacy.connect(new TransportV1(url, { fetch }));
  closers.push(() => legacy.close());
  for (const view of [...current, older]) {
    const uri = view?.uri as string;
    expect(await modern.readResource({ uri })).toMatchObject({
      contents: [{ uri, mimeType: MIME, _meta: { ui: uiOf(view?.name as string) } }],
      ttlMs: 31_536_000_000,
    });
    const answer = await legacy.readResource({ uri });
    expect(answer.contents[0]).toMatchObject({ uri, mimeType: MIME });
    expect(answer).not.toHaveProperty('ttlMs');
  }
});

describe('beside the user’s own resources (the SDK hand-over)', () => {
  const eras: Record<string, () => Promise<Lister>> = {
    '2026-07-28: the SDK v2 feature server': () => v2Client(handedOver, UI_CAPABILITIES),
    '2025: the SDK v1 server': () => v1Client(handedOver, UI_CAPABILITIES),
  };
  test.each(Object.entries(eras))('%s lists and reads both', async (_era, connect) => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri).sort()).toEqual(
      ['notes://readme', ...current.map((view) => view.uri)].sort(),
    );
    for (const view of current)
      expect(resources.find((resource) => resource.uri === view.uri)).toMatchObject({
        mimeType: MIME,
        _meta: { ui: uiOf(view.name) },
      });
    const readme = await client.readResource({ uri: 'notes://readme' });
    expect(readme.contents[0]).toMatchObject({ text: 'read me' });
    for (const view of [...current, older]) {
      const { contents } = await client.readResource({ uri: view?.uri as string });
      expect(contents[0]).toMatchObject({
        uri: view?.uri,
        mimeType: MIME,
        _meta: { ui: uiOf(view?.name as string) },
      });
    }
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
  });
});
