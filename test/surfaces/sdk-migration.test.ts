import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpHandler, InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { attachTools as attachToolsV1 } from 'toolprep/mcp/server';
import { attachTools, featureHandler } from 'toolprep/mcp/v2';
import { createToolRuntime, type PreparedToolSet, type ToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { copyFixture, type FixtureProject, REPO } from '../support/fixture-project.js';
import { listen, v1SessionHandler } from '../support/mcp-parity-servers.js';

/**
 * A ten-tool issue tracker written for the official SDK (`registerTool`, Zod schemas), moved to
 * toolprep contracts three tools at a time (fixtures/sdk-migration: stages 0, 3, 6, 9 and 10, each
 * generated here with the CLI). At every stage, whichever of `attachTools` and `registerTool` comes
 * first, the official clients (v1; v2 on 2025 and on 2026-07-28) list all ten tools and call each:
 * on SDK v2's `McpServer` under `createMcpHandler`, and on SDK v1's `McpServer` served the SDK's
 * way, with sessions.
 */

type ToolName = string;
type Tracker = Record<ToolName, (args: unknown) => Record<string, unknown>>;
interface Fixture {
  readonly TOOL_NAMES: readonly ToolName[];
  readonly descriptions: Record<ToolName, string>;
  registerIssueTools<Server>(server: Server, tracker: Tracker, names: readonly ToolName[]): Server;
  createTracker(): Tracker;
  readonly schemas: Record<ToolName, { readonly input: z.ZodObject }>;
}

const STAGES = [0, 3, 6, 9, 10] as const;
const ORDERS = ['registerTool first', 'attachTools first'] as const;
type Order = (typeof ORDERS)[number];
/** Small pages, so that every stage's list spans pages (and one page holds both kinds of tools). */
const PAGE_SIZE = 4;
const INFO = { name: 'issues', version: '1.0.0' };

/** Each tool called once, in an order that leaves something for the next to read. */
const CALLS: readonly [ToolName, Record<string, unknown>][] = [
  ['create_issue', { title: 'Login fails on Safari', labels: ['bug'] }],
  ['get_issue', { id: 1 }],
  ['list_issues', {}],
  ['update_issue', { id: 1, body: 'Since Safari 17.' }],
  ['close_issue', { id: 1 }],
  ['reopen_issue', { id: 1 }],
  ['add_comment', { id: 1, text: 'Seen it too.' }],
  ['list_comments', { id: 1 }],
  ['add_labels', { id: 1, labels: ['bug', 'safari'] }],
  ['search_issues', { query: 'safari' }],
];

let project: FixtureProject;
let fixture: Fixture;
const toolSets = new Map<number, PreparedToolSet>();

beforeAll(async () => {
  project = copyFixture('sdk-migration');
  symlinkSync(
    path.join(REPO, 'node_modules/@modelcontextprotocol'),
    path.join(project.dir, 'node_modules/@modelcontextprotocol'),
  );
  for (const stage of STAGES) {
    const generated = project.cli('generate', '--quiet', '--config', `stages/${stage}/toolprep.config.ts`);
    if (generated.status !== 0) throw new Error(`stage ${stage}: ${generated.stdout}${generated.stderr}`);
    const module = await import(path.join(project.dir, `stages/${stage}/toolprep.gen.ts`));
    toolSets.set(stage, module.tools);
  }
  const load = (file: string) => import(path.join(project.dir, 'src', file));
  fixture = {
    ...(await load('sdk-server.ts')),
    ...(await load('descriptions.ts')),
    ...(await load('tracker.ts')),
    ...(await load('schemas.ts')),
  };
}, 180_000);
afterAll(() => project?.remove());

/** A stage's tools moved to contracts (served by toolprep) and the rest (still the SDK's). */
function split(stage: number): { moved: readonly ToolName[]; kept: readonly ToolName[] } {
  return { moved: fixture.TOOL_NAMES.slice(0, stage), kept: fixture.TOOL_NAMES.slice(stage) };
}

/** The runtime of a stage: the generated tool set, each moved tool answered by the tracker. */
function stageRuntime(stage: number, tracker: Tracker): ToolRuntime {
  const { moved } = split(stage);
  return createToolRuntime(toolSets.get(stage) as PreparedToolSet, {
    handlers: Object.fromEntries(moved.map((name) => [name, (args: unknown) => tracker[name]?.(args)])),
  });
}

/** The user's server at a stage, in one order of `registerTool` and `attachTools`. */
function composed<Server>(
  server: Server,
  stage: number,
  order: Order,
  tracker: Tracker,
  attach: (server: Server) => Server,
): Server {
  const { kept } = split(stage);
  if (order === 'registerTool first') return attach(fixture.registerIssueTools(server, tracker, kept));
  return fixture.registerIssueTools(attach(server), tracker, kept);
}

interface ListedTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: { readonly properties?: object };
}
interface AnyClient {
  listTools(params?: { cursor?: string }): Promise<{ tools: ListedTool[]; nextCursor?: string }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

type ClientName = 'v1 client' | 'v2 client' | 'v2 client, versionNegotiation auto';

/**
 * Lists every page and calls each tool; checks the list (toolprep's entries first, in the
 * manifest's order, then the SDK's in its registration order, each described as before) and each
 * answer against the tracker run directly.
 */
async function exercise(client: AnyClient, stage: number, clientName: ClientName): Promise<void> {
  const listed: ListedTool[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    listed.push(...page.tools);
    cursor = page.nextCursor;
    pages++;
  } while (cursor !== undefined);
  const { moved, kept } = split(stage);
  expect(listed.map((tool) => tool.name)).toEqual([...[...moved].sort(), ...kept]);
  // The v1 client asks for each page; the v2 client follows the cursors itself and answers them all.
  expect(pages).toBe(clientName === 'v1 client' ? Math.ceil(fixture.TOOL_NAMES.length / PAGE_SIZE) : 1);
  for (const tool of listed) {
    expect(tool.description).toBe(fixture.descriptions[tool.name]);
    expect(Object.keys(tool.inputSchema.properties ?? {})).toEqual(Object.keys(inputOf(tool.name).shape));
  }
  const reference = fixture.createTracker();
  for (const [name, args] of CALLS) {
    const result = (await client.callTool({ name, arguments: args })) as {
      content: { type: string; text: string }[];
      structuredContent?: unknown;
      isError?: boolean;
    };
    const expected = reference[name]?.(inputOf(name).parse(args));
    expect(result.isError ?? false, `${name}: ${JSON.stringify(result)}`).toBe(false);
    expect(JSON.parse(result.content[0]?.text ?? 'null')).toEqual(expected);
    expect(result.structuredContent).toEqual(expected);
  }
}

function inputOf(name: ToolName): z.ZodObject {
  const input = fixture.schemas[name]?.input;
  if (!input) throw new Error(`the fixture has no schema for "${name}"`);
  return input;
}

/** The official clients: v1 (2025), v2 as it comes (2025), v2 negotiating (2026-07-28 where served). */
const CLIENTS = {
  'v1 client': async (url: string) => {
    const client = new ClientV1({ name: 'migration-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransportV1(new URL(url)));
    return { client: client as unknown as AnyClient, era: '2025' };
  },
  'v2 client': async (url: string) => {
    const client = new Client({ name: 'migration-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return { client: client as unknown as AnyClient, era: client.getNegotiatedProtocolVersion() };
  },
  'v2 client, versionNegotiation auto': async (url: string) => {
    const client = new Client(
      { name: 'migration-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return { client: client as unknown as AnyClient, era: client.getNegotiatedProtocolVersion() };
  },
} as const satisfies Record<ClientName, unknown>;

const V2_CASES = STAGES.flatMap((stage) =>
  ORDERS.flatMap((order) =>
    (Object.keys(CLIENTS) as ClientName[]).map((client) => ({
      moved: `${stage} of 10`,
      stage,
      order,
      client,
    })),
  ),
);
const V1_CASES = STAGES.flatMap((stage) =>
  ORDERS.flatMap((order) =>
    (['v1 client', 'v2 client'] as const).map((client) => ({
      moved: `${stage} of 10`,
      stage,
      order,
      client,
    })),
  ),
);

describe('the ten-tool server moved three tools at a time, on SDK v2 under createMcpHandler', () => {
  test.for(V2_CASES)(
    '$moved moved, $order — $client lists all ten and calls each',
    async ({ stage, order, client: clientName }) => {
      const tracker = fixture.createTracker();
      const runtime = stageRuntime(stage, tracker);
      const handler = toNodeHandler(
        createMcpHandler(() =>
          composed(new McpServer(INFO), stage, order, tracker, (server) =>
            attachTools(server, runtime, { pageSize: PAGE_SIZE }),
          ),
        ),
      );
      const server = await listen((request, response) => handler(request, response));
      try {
        const { client, era } = await CLIENTS[clientName](server.url);
        if (clientName === 'v2 client, versionNegotiation auto') expect(era).toBe('2026-07-28');
        else expect(era).not.toBe('2026-07-28');
        await exercise(client, stage, clientName);
        await client.close();
      } finally {
        await server.close();
      }
    },
  );
});

describe('the same migration on SDK v1’s McpServer, served with sessions', () => {
  test.for(V1_CASES)(
    '$moved moved, $order — $client lists all ten and calls each',
    async ({ stage, order, client: clientName }) => {
      const tracker = fixture.createTracker();
      const runtime = stageRuntime(stage, tracker);
      const server = await listen(
        v1SessionHandler(() =>
          composed(new McpServerV1(INFO), stage, order, tracker, (server) =>
            attachToolsV1(server, runtime, { pageSize: PAGE_SIZE }),
          ),
        ),
      );
      try {
        const { client } = await CLIENTS[clientName](server.url);
        await exercise(client, stage, clientName);
        await client.close();
      } finally {
        await server.close();
      }
    },
  );
});

describe('one owner per name', () => {
  const SERVERS = {
    'SDK v2': () => ({
      server: new McpServer(INFO),
      attach: attachTools as (server: never, runtime: ToolRuntime) => unknown,
    }),
    'SDK v1': () => ({
      server: new McpServerV1(INFO),
      attach: attachToolsV1 as (server: never, runtime: ToolRuntime) => unknown,
    }),
  };
  const TWICE =
    /tool "get_issue" is defined twice on this McpServer: registered with the SDK's registerTool, and a toolprep contract/;

  test.for(Object.keys(SERVERS) as (keyof typeof SERVERS)[])(
    '%s: a name both registered and a contract is refused at start, in either order',
    (sdk) => {
      const tracker = fixture.createTracker();
      const first = SERVERS[sdk]();
      fixture.registerIssueTools(first.server, tracker, ['get_issue']);
      expect(() => first.attach(first.server as never, stageRuntime(3, tracker))).toThrow(TWICE);
      const second = SERVERS[sdk]();
      second.attach(second.server as never, stageRuntime(3, tracker));
      expect(() => fixture.registerIssueTools(second.server, tracker, ['get_issue'])).toThrow(TWICE);
    },
  );

  test.for(Object.keys(SERVERS) as (keyof typeof SERVERS)[])(
    '%s: a second attachTools on one server is refused, not allowed to drop the first one’s tools',
    (sdk) => {
      const { server, attach } = SERVERS[sdk]();
      const tracker = fixture.createTracker();
      attach(server as never, stageRuntime(3, tracker));
      expect(() => attach(server as never, stageRuntime(6, tracker))).toThrow(
        /already called on this McpServer/,
      );
    },
  );
});

describe('the list follows the SDK’s tools registered and removed after attach', () => {
  const late = (server: { registerTool: (...args: never[]) => { remove(): void } }) =>
    (server.registerTool as (...args: unknown[]) => { remove(): void })(
      'archive_issue',
      { description: 'Archive an issue.' },
      () => ({ content: [{ type: 'text', text: 'archived' }] }),
    );

  interface Connected {
    readonly server: { registerTool: (...args: never[]) => { remove(): void } };
    readonly client: AnyClient;
  }
  const onChanged = (changed: () => void) => ({
    listChanged: { tools: { onChanged: changed, debounceMs: 0, autoRefresh: false } },
  });
  const SDKS: Record<string, (changed: () => void) => Promise<Connected>> = {
    'SDK v2': async (changed) => {
      const server = composed(new McpServer(INFO), 3, 'attachTools first', fixture.createTracker(), (each) =>
        attachTools(each, stageRuntime(3, fixture.createTracker())),
      );
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: 'migration-test', version: '1.0.0' }, onChanged(changed));
      await client.connect(clientSide);
      return { server: server as never, client: client as unknown as AnyClient };
    },
    'SDK v1': async (changed) => {
      const server = composed(
        new McpServerV1(INFO),
        3,
        'attachTools first',
        fixture.createTracker(),
        (each) => attachToolsV1(each, stageRuntime(3, fixture.createTracker())),
      );
      const [clientSide, serverSide] = InMemoryTransportV1.createLinkedPair();
      await server.connect(serverSide);
      const client = new ClientV1({ name: 'migration-test', version: '1.0.0' }, onChanged(changed));
      await client.connect(clientSide);
      return { server: server as never, client: client as unknown as AnyClient };
    },
  };

  test.for(Object.keys(SDKS))(
    '%s: a connected client is told, lists and calls the tool, then not',
    async (sdk) => {
      let changes = 0;
      const { server, client } = await (SDKS[sdk] as (changed: () => void) => Promise<Connected>)(() => {
        changes++;
      });
      const archive = late(server);
      await expect.poll(() => changes).toBe(1);
      expect((await client.listTools()).tools.map((tool) => tool.name).at(-1)).toBe('archive_issue');
      expect(await client.callTool({ name: 'archive_issue', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'archived' }],
      });
      archive.remove();
      await expect.poll(() => changes).toBe(2);
      expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('archive_issue');
      await client.close();
    },
  );
});

describe('what composing reads of the SDKs (fails here first when a release moves it)', () => {
  test.for([
    ['@modelcontextprotocol/server 2.x', () => new McpServer(INFO)],
    ['@modelcontextprotocol/sdk 1.x', () => new McpServerV1(INFO)],
  ] as const)(
    '%s: the McpServer keeps its tools and its tool handlers where attachTools reads them',
    ([, make]) => {
      const server = make() as unknown as Record<string, unknown>;
      expect(server.setToolRequestHandlers, 'McpServer.setToolRequestHandlers').toBeTypeOf('function');
      expect(server._toolHandlersInitialized, 'McpServer._toolHandlersInitialized').toBe(false);
      fixture.registerIssueTools(server, fixture.createTracker(), ['get_issue']);
      expect(server._toolHandlersInitialized).toBe(true);
      expect(Object.keys(server._registeredTools as object), 'McpServer._registeredTools').toEqual([
        'get_issue',
      ]);
    },
  );
});

describe('toolprep’s own serving of 2026-07-28', () => {
  test('featureHandler refuses, at start, a server with tools registered with the SDK, naming them', () => {
    const tracker = fixture.createTracker();
    const runtime = stageRuntime(3, tracker);
    expect(() =>
      featureHandler(runtime, () =>
        fixture.registerIssueTools(new McpServer(INFO), tracker, ['add_comment']),
      ),
    ).toThrow(
      /featureHandler: the McpServer has tools registered with the SDK's registerTool \("add_comment"\)/,
    );
  });
});
