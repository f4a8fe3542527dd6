import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { prepareToolSet } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { serveHttp } from 'toolprep/mcp';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { copyFixture, type FixtureProject } from '../support/fixture-project.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * Groups over MCP (decision 0046), through the official clients: the progressive-disclosure
 * draft's `groups/list` and `groups/get` for a 2026-07-28 client that declares
 * `io.modelcontextprotocol/groups` (its deferred tools leave `tools/list`), today's list for one
 * that declares nothing and for 2025 sessions, and one endpoint per group on both eras.
 */

const GROUPS = 'io.modelcontextprotocol/groups';
const VERSION = '2026-07-28';

const tool = (description: string) =>
  defineTool({ description, input: z.object({ id: z.string().optional() }) });
const contracts = {
  createIssue: tool('Open an issue.'),
  listIssues: tool('List the open issues.'),
  closeIssue: tool('Close an issue.'),
  listRepos: tool('List the repositories.'),
  whoami: tool('Name the signed-in user.'),
};
// Groups and deferral as the build decides them: a tool's groups (its own first) and `loading`.
const placement: Record<string, { groups: string[]; deferred: boolean }> = {
  create_issue: { groups: ['issues'], deferred: true },
  list_issues: { groups: ['issues', 'triage'], deferred: true },
  close_issue: { groups: ['issues'], deferred: false },
  list_repos: { groups: ['repos'], deferred: true },
  whoami: { groups: ['account'], deferred: false },
};
const base = prepareToolSet(contracts);
const toolSet = {
  ...base,
  groups: [
    { name: 'issues', description: 'Open, list and close issues.' },
    { name: 'triage', description: 'Sort incoming issues.' },
    { name: 'repos' },
    { name: 'account', description: 'Who is signed in.' },
  ],
  prepared: base.prepared.map((prepared) => {
    const { groups, deferred } = placement[prepared.name] as { groups: string[]; deferred: boolean };
    return { ...prepared, groups, ...(deferred ? { loading: 'deferred' as const } : {}) };
  }),
};
const handlers = Object.fromEntries(
  base.prepared.map(({ name }) => [name, ({ id }: { id?: string }) => `${name}${id ? ` ${id}` : ''}`]),
);
const runtime = createToolRuntime(toolSet, { handlers });
const info = { name: 'tracker', version: '1.0.0' };
const ALL = ['create_issue', 'list_issues', 'close_issue', 'list_repos', 'whoami'];

let origin: string;
let close: () => void;
beforeAll(async () => {
  const server = await serveHttp(runtime, info, 0, { groupEndpoints: true });
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close?.());

async function v2Client(path: string, capabilities: object = {}): Promise<Client> {
  const client = new Client(info, { capabilities, versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(path, origin)));
  expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
  return client;
}

async function v1Client(path: string): Promise<ClientV1> {
  const client = new ClientV1(info);
  await client.connect(new TransportV1(new URL(path, origin)));
  return client;
}

/** A raw JSON-RPC answer, as the tests read it. */
interface Answer {
  readonly result: {
    readonly tools: { name: string }[];
    readonly groups: { name: string }[];
    readonly contents: { readonly tools: { name: string }[] };
  };
  readonly error: { readonly code: number };
}
const names = (tools: readonly { name: string }[]) => tools.map((listed) => listed.name);
const GroupList = z.object({ groups: z.array(z.object({ name: z.string(), description: z.string() })) });
const GroupGet = z.object({
  contents: z.object({
    tools: z.array(z.object({ name: z.string(), inputSchema: z.object({}).passthrough() }).passthrough()),
  }),
});

/** A raw 2026-07-28 request to a fetch handler, as a client with these capabilities sends it. */
const rawPost =
  (handle: (request: Request) => Promise<Response>) =>
  async (path: string, method: string, params: object, capabilities: object) => {
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope } });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
    };
    const response = await handle(
      new Request(new URL(path, 'http://localhost'), { method: 'POST', headers, body }),
    );
    return { status: response.status, body: (await response.json()) as Answer };
  };

describe('a 2026-07-28 client that declares the groups extension', () => {
  test('is offered the extension, lists the eager tools, and gets each group of deferred tools', async () => {
    const client = await v2Client('/mcp', { extensions: { [GROUPS]: {} } });
    try {
      expect(client.getServerCapabilities()?.extensions).toMatchObject({ [GROUPS]: {} });
      const { tools: topLevel } = await client.listTools();
      expect(names(topLevel)).toEqual(['close_issue', 'whoami']);
      // Each tool as the whole set's list writes it: its groups, and alwaysLoad beside deferred tools.
      expect(topLevel[0]?._meta).toEqual({ [GROUPS]: ['issues'], 'anthropic/alwaysLoad': true });

      const { groups } = await client.request({ method: 'groups/list', params: {} } as never, GroupList);
      expect(groups).toEqual([
        { name: 'issues', description: 'Open, list and close issues.' },
        { name: 'triage', description: 'Sort incoming issues.' },
        // Left undescribed by the build: described by its tools, as the draft needs a description.
        { name: 'repos', description: 'Tools: list_repos.' },
      ]);

      const issues = await client.request(
        { method: 'groups/get', params: { name: 'issues' } } as never,
        GroupGet,
      );
      expect(names(issues.contents.tools)).toEqual(['create_issue', 'list_issues']);
      expect(issues.contents.tools[1]).toMatchObject({ _meta: { [GROUPS]: ['issues', 'triage'] } });
      const triage = await client.request(
        { method: 'groups/get', params: { name: 'triage' } } as never,
        GroupGet,
      );
      // A tool shared by two groups is the same definition in both.
      expect(triage.contents.tools).toEqual([issues.contents.tools[1]]);

      await expect(
        client.request({ method: 'groups/get', params: { name: 'account' } } as never, GroupGet),
      ).rejects.toMatchObject({ code: -32002, message: expect.stringContaining('Unknown group "account"') });

      // Scoping gates discovery, not use: a scoped tool is called as any other.
      expect(await client.callTool({ name: 'create_issue', arguments: { id: '7' } })).toMatchObject({
        content: [{ type: 'text', text: 'create_issue 7' }],
      });
    } finally {
      await client.close();
    }
  });
});

describe('a client that declares nothing sees today’s list', () => {
  test('2026-07-28: every tool, and groups/* refused as a capability it did not declare', async () => {
    const client = await v2Client('/mcp');
    try {
      expect(names((await client.listTools()).tools)).toEqual(ALL);
      await expect(
        client.request({ method: 'groups/list', params: {} } as never, GroupList),
      ).rejects.toMatchObject({ code: -32021 });
    } finally {
      await client.close();
    }
  });

  test('2025 (SDK v1): every tool, and no groups methods', async () => {
    const client = await v1Client('/mcp');
    try {
      expect(names((await client.listTools()).tools)).toEqual(ALL);
      await expect(client.request({ method: 'groups/list', params: {} }, GroupList)).rejects.toMatchObject({
        code: -32601,
      });
    } finally {
      await client.close();
    }
  });
});

describe('one endpoint per group', () => {
  test.each([
    ['2026-07-28 (SDK v2)', (path: string) => v2Client(path, { extensions: { [GROUPS]: {} } })],
    ['2025 (SDK v1)', v1Client],
  ])('%s: lists and calls that group’s tools only', async (_era, connect) => {
    const client = await connect('/mcp/issues');
    try {
      // Every tool of the group, eager or deferred: the endpoint is the scope.
      expect(names((await client.listTools()).tools)).toEqual(['create_issue', 'list_issues', 'close_issue']);
      expect(await client.callTool({ name: 'close_issue', arguments: { id: '3' } })).toMatchObject({
        content: [{ type: 'text', text: 'close_issue 3' }],
      });
      await expect(client.callTool({ name: 'list_repos', arguments: {} })).rejects.toThrow(
        /Unknown tool "list_repos"\. Available tools: create_issue, list_issues, close_issue\./,
      );
    } finally {
      await client.close();
    }
  });

  test('a path naming no group is 404, naming the groups', async () => {
    const response = await fetch(new URL('/mcp/isues', origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('no group \\"isues\\" (groups: issues, triage, repos, account)');
  });

  test('the fetch handler serves the endpoints and the draft alike', async () => {
    const post = rawPost(createMcpFetchHandler(runtime, info, { groupEndpoints: true }));
    const declared = { extensions: { [GROUPS]: {} } };
    expect(names((await post('/mcp/repos', 'tools/list', {}, {})).body.result.tools)).toEqual(['list_repos']);
    // A group endpoint lists its group flat: the draft has nothing to scope there.
    expect(names((await post('/mcp/issues', 'tools/list', {}, declared)).body.result.tools)).toHaveLength(3);
    expect((await post('/mcp/issues', 'groups/list', {}, declared)).body.error.code).toBe(-32601);
    expect(
      (await post('/mcp', 'groups/get', { name: 'repos' }, declared)).body.result.contents.tools,
    ).toHaveLength(1);
    const unknown = await post('/mcp', 'groups/get', { name: 'nope' }, declared);
    expect([unknown.status, unknown.body.error.code]).toEqual([200, -32002]);
  });
});

describe('refused at start', () => {
  test('groupEndpoints for tools without groups, or with a server of yours', () => {
    const flat = createToolRuntime(base, { handlers });
    expect(() => createMcpFetchHandler(flat, info, { groupEndpoints: true })).toThrow(
      /groupEndpoints: true, but the tools have no groups/,
    );
    expect(() =>
      createMcpFetchHandler(runtime, info, { groupEndpoints: true, server: () => ({}) as never }),
    ).toThrow(/groupEndpoints cannot scope a server of yours/);
  });

  test('a group name the draft refuses', () => {
    const badly = createToolRuntime({ ...toolSet, groups: [{ name: 'Issue_Tracker' }] }, { handlers });
    expect(() => createMcpFetchHandler(badly, info)).toThrow(
      /group "Issue_Tracker" cannot be served over MCP/,
    );
  });
});

describe('placement, for any groups and deferral', () => {
  const GROUP_NAMES = ['alpha', 'beta', 'gamma', 'delta'];
  const placements = fc.tuple(
    ...ALL.map(() =>
      fc.record({
        groups: fc.subarray(GROUP_NAMES, { minLength: 1 }),
        deferred: fc.boolean(),
      }),
    ),
  );

  test('a client of the draft finds each tool once: top-level, or in the groups that scope it; others see every tool', async () => {
    await fc.assert(
      fc.asyncProperty(placements, async (placed) => {
        const set = {
          ...base,
          groups: GROUP_NAMES.map((name) => ({ name })),
          prepared: base.prepared.map((prepared, index) => {
            const { groups, deferred } = placed[index] as { groups: string[]; deferred: boolean };
            return { ...prepared, groups, ...(deferred ? { loading: 'deferred' as const } : {}) };
          }),
        };
        const post = rawPost(
          createMcpFetchHandler(createToolRuntime(set, { handlers }), info, { groupEndpoints: true }),
        );
        const declared = { extensions: { [GROUPS]: {} } };
        const deferred = ALL.filter((_, index) => placed[index]?.deferred);

        expect(names((await post('/mcp', 'tools/list', {}, {})).body.result.tools)).toEqual(ALL);
        const topLevel = names((await post('/mcp', 'tools/list', {}, declared)).body.result.tools);
        expect(topLevel).toEqual(ALL.filter((name) => !deferred.includes(name)));

        const listed = await post('/mcp', 'groups/list', {}, declared);
        const scoped = new Map<string, unknown>();
        for (const { name } of deferred.length === 0 ? [] : listed.body.result.groups) {
          const { tools } = (await post('/mcp', 'groups/get', { name }, declared)).body.result.contents;
          expect(tools.length).toBeGreaterThan(0);
          for (const scopedTool of tools) {
            // A tool shared by groups is the same definition in each.
            if (scoped.has(scopedTool.name)) expect(scopedTool).toEqual(scoped.get(scopedTool.name));
            scoped.set(scopedTool.name, scopedTool);
          }
        }
        expect([...scoped.keys()].sort()).toEqual([...deferred].sort());
        const offered = GROUP_NAMES.filter((group) =>
          placed.some((tool) => tool.deferred && tool.groups.includes(group)),
        );
        if (deferred.length === 0) expect(listed.body.error.code).toBe(-32601);
        else expect(names(listed.body.result.groups)).toEqual(offered);

        for (const group of GROUP_NAMES) {
          const members = ALL.filter((_, index) => placed[index]?.groups.includes(group));
          const answer = await post(`/mcp/${group}`, 'tools/list', {}, declared);
          expect(names(answer.body.result.tools)).toEqual(members);
        }
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});

describe('the large-set fixture, generated: 178 tools in 16 groups, all deferred', () => {
  let fixture: FixtureProject;
  let served: {
    origin: string;
    close: () => void;
    tools: readonly { name: string; groups?: readonly string[] }[];
  };
  let groupsOfSet: readonly { name: string; description?: string }[];
  beforeAll(async () => {
    fixture = copyFixture('large-set');
    const generated = fixture.cli('generate', '--quiet');
    expect(generated.status).toBe(0);
    const { tools } = (await import(path.join(fixture.dir, 'src/toolprep.gen.ts'))) as {
      tools: Parameters<typeof createToolRuntime>[0];
    };
    groupsOfSet = tools.groups ?? [];
    const large = createToolRuntime(tools, {
      handlers: Object.fromEntries(tools.prepared.map(({ name }) => [name, () => name])),
    });
    const server = await serveHttp(large, info, 0, { groupEndpoints: true });
    served = {
      origin: `http://localhost:${(server.address() as AddressInfo).port}`,
      close: () => server.close(),
      tools: large.list(),
    };
  }, 180_000);
  afterAll(() => {
    served?.close();
    fixture?.remove();
  });
  const connectTo = (path: string, capabilities: object = {}) => {
    const client = new Client(info, { capabilities, versionNegotiation: { mode: 'auto' } });
    return client.connect(new StreamableHTTPClientTransport(new URL(path, served.origin))).then(() => client);
  };

  test('a client that declares nothing lists every tool, each with its group in _meta', async () => {
    const client = await connectTo('/mcp');
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(178);
      for (const listed of tools)
        expect(listed._meta?.[GROUPS]).toEqual(
          served.tools.find((tool) => tool.name === listed.name)?.groups,
        );
    } finally {
      await client.close();
    }
  });

  test('a client of the draft lists no tool, 16 groups, and fetches a group whole', async () => {
    const client = await connectTo('/mcp', { extensions: { [GROUPS]: {} } });
    try {
      expect((await client.listTools()).tools).toEqual([]);
      const { groups } = await client.request({ method: 'groups/list', params: {} } as never, GroupList);
      expect(groups).toEqual(groupsOfSet);
      const issues = await client.request(
        { method: 'groups/get', params: { name: 'issues' } } as never,
        GroupGet,
      );
      expect(names(issues.contents.tools)).toEqual(
        names(served.tools.filter((tool) => tool.groups?.includes('issues'))),
      );
    } finally {
      await client.close();
    }
  });

  test('the endpoint of a group lists that group only (SDK v1, 2025)', async () => {
    const client = new ClientV1(info);
    await client.connect(new TransportV1(new URL('/mcp/billing', served.origin)));
    try {
      const { tools } = await client.listTools();
      expect(names(tools)).toEqual(names(served.tools.filter((tool) => tool.groups?.includes('billing'))));
      expect(tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
