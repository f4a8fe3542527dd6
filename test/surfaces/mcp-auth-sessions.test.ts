import type { Server } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { prepareToolSet } from '@toolprep/build';
import fc from 'fast-check';
import { defineTool } from 'toolprep';
import { createMcpHttpHandler, type McpHttpOptions } from 'toolprep/mcp';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  type AuthServer,
  type CLIENTS,
  clientCredentials,
  serveAtResource,
  startAuthServer,
} from '../support/auth-server.js';
import { closeAll } from '../support/loopback.js';
import { noteContracts } from '../support/note-contracts.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * `auth` with 2025 sessions and with the groups draft (decision 0060), against a real
 * authorization server (`oidc-provider`): a session serves the caller that opened it, its list
 * and calls that caller's, through the official v1 client and the SDK v2 client in its 2025 mode;
 * another caller naming it, or the same caller with a token of other scopes, meets an unknown
 * session; and the groups a caller is offered hold only the deferred tools it may see.
 */

const VERSION = '2026-07-28';
const GROUPS = 'io.modelcontextprotocol/groups';
const info = { name: 'notes', version: '1.0.0' };

const contracts = {
  ...noteContracts,
  publishNote: defineTool({
    description: 'Publish a note.',
    input: z.object({ path: z.string() }),
    scopes: ['notes:write'],
  }),
};
// Access, groups and deferral as the build records them: `public` is the config's.
const placement: Record<string, { groups: string[]; deferred?: true; public?: true }> = {
  status: { groups: ['service'], public: true },
  whoami: { groups: ['service'] },
  read_note: { groups: ['notes'], deferred: true },
  write_note: { groups: ['notes', 'editing'], deferred: true },
  publish_note: { groups: ['editing'], deferred: true },
};
const base = prepareToolSet(contracts);
const toolSet = {
  ...base,
  groups: [
    { name: 'service', description: 'Whether the service is up, and who calls.' },
    // Undescribed: the draft's description is made of the tools the caller sees.
    { name: 'notes' },
    { name: 'editing', description: 'Edit and publish notes.' },
  ],
  prepared: base.prepared.map((tool) => {
    const placed = placement[tool.name] as (typeof placement)[string];
    return {
      ...tool,
      groups: placed.groups,
      ...(placed.deferred ? { loading: 'deferred' as const } : {}),
      ...(placed.public ? { access: { public: true as const } } : {}),
    };
  }),
};
const runtime = createToolRuntime(toolSet, {
  handlers: {
    status: () => 'up',
    // biome-ignore lint/suspicious/noExplicitAny: the MCP context, read by the test.
    whoami: (_args: object, context: any) =>
      `${context.caller?.subject} ${context.caller?.scopes?.join(' ')}`,
    read_note: ({ path }: { path: string }) => `note ${path}`,
    // biome-ignore lint/suspicious/noExplicitAny: the MCP context.
    write_note: async ({ path }: { path: string }, context: any) => {
      const answer = await context.elicit({
        message: `Overwrite ${path}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      });
      return `${answer.action} ${path}`;
    },
    publish_note: ({ path }: { path: string }) => `published ${path}`,
  },
});

let auth: AuthServer;
const servers: Server[] = [];

/** A toolprep server with `auth` and sessions on a loopback port. */
const serveWithAuth = async (extra: (resource: string) => Partial<McpHttpOptions> = () => ({})) =>
  (
    await serveAtResource(servers, (resource) =>
      createMcpHttpHandler(runtime, info, {
        auth: { issuer: auth.issuer, resourceMetadata: { resource } },
        sessions: true,
        ...extra(resource),
      }),
    )
  ).resource;

let hidden: string;
let stepUp: string;
beforeAll(async () => {
  auth = await startAuthServer();
  hidden = await serveWithAuth();
  stepUp = await serveWithAuth((resource) => ({
    auth: { issuer: auth.issuer, resourceMetadata: { resource }, withoutScopes: 'step-up' },
  }));
});
afterAll(() => {
  closeAll(servers);
  auth?.close();
});

const bearer = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

/** The v1 client on a session of its own (or, given a session id, on that one, without `initialize`). */
async function v1Client(resource: string, token: string, sessionId?: string) {
  const client = new ClientV1(info, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: 'accept',
    content: { confirm: true },
  }));
  const transport = new TransportV1(new URL(resource), {
    ...bearer(token),
    ...(sessionId ? { sessionId } : {}),
  });
  await client.connect(transport);
  return { client, sessionId: transport.sessionId as string };
}

/** The SDK v2 client in its 2025 mode (its default), getting its own token; on a session of its own or this one. */
async function v2Client(resource: string, clientId: keyof typeof CLIENTS, sessionId?: string) {
  const authProvider = clientCredentials(auth, clientId);
  const client = new Client(info);
  const transport = new StreamableHTTPClientTransport(new URL(resource), {
    authProvider,
    ...(sessionId ? { sessionId } : {}),
  });
  await client.connect(transport);
  expect(client.getNegotiatedProtocolVersion()).not.toBe(VERSION);
  return { client, sessionId: transport.sessionId as string };
}

/** A raw 2025 request on a session, as a client naming it sends it. */
async function onSession(resource: string, sessionId: string, token: string | undefined, method = 'POST') {
  const response = await fetch(resource, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }) } : {}),
  });
  return { status: response.status, text: await response.text() };
}

const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name).sort();
const text = (result: object) => (result as { content: { text: string }[] }).content[0]?.text;
const READER = ['read_note', 'status', 'whoami'];
const WRITER = ['publish_note', 'read_note', 'status', 'whoami', 'write_note'];

describe('a 2025 session serves the caller that opened it', () => {
  test('v1 and SDK v2 clients: two callers, two sessions, two lists; calls and questions on each', async () => {
    const reader = await v2Client(hidden, 'reader');
    const writer = await v1Client(hidden, await auth.token('writer', hidden));
    try {
      expect(reader.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(writer.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(names((await reader.client.listTools()).tools)).toEqual(READER);
      expect(names((await writer.client.listTools()).tools)).toEqual(WRITER);
      expect(text(await reader.client.callTool({ name: 'whoami', arguments: {} }))).toBe('reader notes:read');
      // The session's point: a handler asks its client, and waits for the answer.
      const written = await writer.client.callTool({ name: 'write_note', arguments: { path: 'a.md' } });
      expect(text(written)).toBe('accept a.md');
      // A hidden tool is an unknown one on a session too.
      await expect(
        reader.client.callTool({ name: 'write_note', arguments: { path: 'a.md' } }),
      ).rejects.toThrow(/Unknown tool "write_note"\. Available tools: (?!.*write_note)/);
    } finally {
      await Promise.all([reader.client.close(), writer.client.close()]);
    }
  });

  test('the session list is the stateless one: the same prepared entries', async () => {
    const token = await auth.token('reader', hidden);
    const session = await v1Client(hidden, token);
    const stateless = await serveWithAuth((resource) => ({
      sessions: false,
      auth: { issuer: auth.issuer, resourceMetadata: { resource } },
    }));
    const plain = await v1Client(stateless, await auth.token('reader', stateless));
    try {
      expect((await session.client.listTools()).tools).toEqual((await plain.client.listTools()).tools);
    } finally {
      await Promise.all([session.client.close(), plain.client.close()]);
    }
  });

  test('another caller naming the session meets an unknown session: 404, told nothing, the session unharmed', async () => {
    const readerToken = await auth.token('reader', hidden);
    const writerToken = await auth.token('writer', hidden);
    const reader = await v1Client(hidden, readerToken);
    try {
      const unknown = await onSession(hidden, crypto.randomUUID(), writerToken);
      const hijack = await onSession(hidden, reader.sessionId, writerToken);
      expect(unknown.status).toBe(404);
      expect(hijack).toEqual(unknown);
      // Nor may it close the session, or listen on it.
      expect(await onSession(hidden, reader.sessionId, writerToken, 'DELETE')).toEqual(
        await onSession(hidden, crypto.randomUUID(), writerToken, 'DELETE'),
      );
      expect((await onSession(hidden, reader.sessionId, writerToken, 'GET')).status).toBe(404);
      // The official clients, given the stolen id, fail as on a session that ended.
      const v1 = await v1Client(hidden, writerToken, reader.sessionId);
      await expect(v1.client.listTools()).rejects.toThrow(/Session not found/);
      await v1.client.close();
      const v2 = await v2Client(hidden, 'writer', reader.sessionId);
      await expect(v2.client.callTool({ name: 'whoami', arguments: {} })).rejects.toThrow(
        /Session not found/,
      );
      await v2.client.close();
      // Without a token, the gate answers first, as for any request.
      expect((await onSession(hidden, reader.sessionId, undefined)).status).toBe(401);
      expect(names((await reader.client.listTools()).tools)).toEqual(READER);
    } finally {
      await reader.client.close();
    }
  });

  test('the same caller: a fresh token of the same scopes keeps the session; one of other scopes is 404', async () => {
    const writer = await v1Client(hidden, await auth.token('writer', hidden));
    try {
      const refreshed = await v1Client(hidden, await auth.token('writer', hidden), writer.sessionId);
      expect(names((await refreshed.client.listTools()).tools)).toEqual(WRITER);
      expect(text(await refreshed.client.callTool({ name: 'whoami', arguments: {} }))).toBe(
        'writer notes:read notes:write',
      );
      await refreshed.client.close();
      const narrower = await auth.token('writer', hidden, 'notes:read');
      expect((await onSession(hidden, writer.sessionId, narrower)).status).toBe(404);
      // A new session for the narrower token lists what it allows.
      const again = await v1Client(hidden, narrower);
      expect(names((await again.client.listTools()).tools)).toEqual(READER);
      await again.client.close();
    } finally {
      await writer.client.close();
    }
  });

  test('every request on a session is checked: an expired token is 401, a valid one goes on', async () => {
    const writer = await v1Client(hidden, await auth.token('writer', hidden));
    try {
      const expired = await auth.sign({ sub: 'writer', exp: Math.floor(Date.now() / 1000) - 60 }, hidden);
      const refused = await onSession(hidden, writer.sessionId, expired);
      expect(refused.status).toBe(401);
      expect(refused.text).toMatch(/invalid_token/);
      expect(names((await writer.client.listTools()).tools)).toEqual(WRITER);
    } finally {
      await writer.client.close();
    }
  });

  test('step-up: every caller has one list, so a broader token goes on in the same session', async () => {
    const narrow = await auth.token('writer', stepUp, 'notes:read');
    const opened = await v1Client(stepUp, narrow);
    try {
      expect(names((await opened.client.listTools()).tools)).toEqual(WRITER);
      await expect(
        opened.client.callTool({ name: 'publish_note', arguments: { path: 'a.md' } }),
      ).rejects.toThrow(/insufficient_scope/);
      const broad = await v1Client(stepUp, await auth.token('writer', stepUp), opened.sessionId);
      const published = await broad.client.callTool({ name: 'publish_note', arguments: { path: 'a.md' } });
      expect(text(published)).toBe('published a.md');
      await broad.client.close();
    } finally {
      await opened.client.close();
    }
  });
});

/** A raw 2026-07-28 request declaring the groups extension, with this token. */
async function modern(
  token: string,
  method: string,
  params: object = {},
  extensions: object = { [GROUPS]: {} },
) {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': { extensions },
  };
  const response = await fetch(hidden, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      ...('name' in params ? { 'mcp-name': String(params.name) } : {}),
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } }),
  });
  const body = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC answer, read by the assertions.
  return { text: body, json: JSON.parse(body) as any };
}

describe("the groups draft's lists hold the caller's tools only", () => {
  test('each caller is offered the groups with deferred tools it sees, each holding those', async () => {
    const cases = [
      {
        clientId: 'reader',
        topLevel: ['status', 'whoami'],
        groups: [{ name: 'notes', description: 'Tools: read_note.' }],
        contents: { notes: ['read_note'] },
      },
      {
        clientId: 'writer',
        topLevel: ['status', 'whoami'],
        groups: [
          { name: 'notes', description: 'Tools: read_note, write_note.' },
          { name: 'editing', description: 'Edit and publish notes.' },
        ],
        contents: { notes: ['read_note', 'write_note'], editing: ['publish_note', 'write_note'] },
      },
    ] as const;
    for (const { clientId, topLevel, groups, contents } of cases) {
      const token = await auth.token(clientId, hidden);
      expect(names((await modern(token, 'tools/list')).json.result.tools)).toEqual(topLevel);
      const listed = await modern(token, 'groups/list');
      expect(listed.json.result).toMatchObject({ groups, cacheScope: 'private' });
      for (const [name, tools] of Object.entries(contents)) {
        const got = await modern(token, 'groups/get', { name });
        expect(names(got.json.result.contents.tools)).toEqual(tools);
      }
    }
  });

  test('a group none of whose deferred tools the caller sees is an unknown group, and no answer names a hidden tool', async () => {
    const token = await auth.token('reader', hidden);
    const hiddenGroup = await modern(token, 'groups/get', { name: 'editing' });
    const noGroup = await modern(token, 'groups/get', { name: 'nothing' });
    expect(hiddenGroup.json.error.code).toBe(noGroup.json.error.code);
    expect(hiddenGroup.json.error.message.replace('"editing"', '"nothing"')).toBe(noGroup.json.error.message);
    const answers = [
      hiddenGroup,
      noGroup,
      await modern(token, 'groups/list'),
      await modern(token, 'groups/get', { name: 'notes' }),
      await modern(token, 'tools/list'),
      await modern(token, 'tools/list', {}, {}),
    ];
    for (const { text: body } of answers)
      for (const word of ['write_note', 'publish_note', '"editing"', 'Edit and publish'])
        expect(body.replace('Unknown group \\"editing\\"', '')).not.toContain(word);
  });

  test('a group a caller sees scopes discovery, not its calls: the deferred tool is called', async () => {
    const token = await auth.token('reader', hidden);
    const called = await modern(token, 'tools/call', { name: 'read_note', arguments: { path: 'a.md' } });
    expect(called.json.result).toMatchObject({ content: [{ text: 'note a.md' }] });
  });
});

describe('properties: whatever the scopes, each caller is kept to its own tools', () => {
  // Tokens a verifier of the test's own reads: `subject~scope+scope`.
  const handle = createMcpFetchHandler(runtime, info, {
    auth: {
      verify: async (token) => {
        const [subject = '', scopes = ''] = token.split('~');
        return { subject, scopes: scopes.split('+').filter(Boolean) };
      },
      resourceMetadata: { resource: 'http://localhost/mcp', authorizationServers: ['http://localhost'] },
    },
    sessions: true,
    responses: 'json',
  });
  const ask = async (token: string, body: object, headers: Record<string, string> = {}) => {
    const response = await handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
          ...headers,
        },
        body: JSON.stringify(body),
      }),
    );
    return {
      status: response.status,
      session: response.headers.get('mcp-session-id'),
      text: await response.text(),
    };
  };
  // `extra:junk` is asked for by no tool: it must change nothing.
  const caller = fc.record({
    subject: fc.constantFrom('ann', 'bob'),
    scopes: fc.subarray(['notes:read', 'notes:write', 'extra:junk']),
  });
  const tokenOf = ({ subject, scopes }: { subject: string; scopes: string[] }) =>
    `${subject}~${scopes.join('+')}`;
  const keyOf = (scopes: string[]) =>
    scopes
      .filter((scope) => scope !== 'extra:junk')
      .sort()
      .join(' ');
  const sees = (scopes: string[]) =>
    toolSet.prepared.filter((tool) => (tool.access?.scopes ?? []).every((scope) => scopes.includes(scope)));

  test('a session answers the caller that opened it, and only a caller with its subject and view', async () => {
    await fc.assert(
      fc.asyncProperty(caller, caller, async (opener, other) => {
        const initialize = {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: info },
        };
        const opened = await ask(tokenOf(opener), initialize);
        const session = opened.session as string;
        expect(session).toMatch(/^[0-9a-f-]{36}$/);
        const onSession = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
        await ask(tokenOf(opener), { jsonrpc: '2.0', method: 'notifications/initialized' }, onSession);
        const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
        const asked = await ask(tokenOf(other), list, onSession);
        if (other.subject === opener.subject && keyOf(other.scopes) === keyOf(opener.scopes)) {
          expect(asked.status).toBe(200);
          expect(names(JSON.parse(asked.text).result.tools)).toEqual(names(sees(opener.scopes)));
        } else {
          const unknown = await ask(tokenOf(other), list, {
            ...onSession,
            'mcp-session-id': crypto.randomUUID(),
          });
          expect(asked).toEqual({ ...unknown, session: null });
          expect(unknown.status).toBe(404);
        }
        await handle(
          new Request('http://localhost/mcp', {
            method: 'DELETE',
            headers: { ...onSession, authorization: `Bearer ${tokenOf(opener)}` },
          }),
        );
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  test("the groups draft's answers name the caller's tools and groups only", async () => {
    await fc.assert(
      fc.asyncProperty(caller, async (who) => {
        const token = tokenOf(who);
        const seen = sees(who.scopes);
        const hidden = toolSet.prepared.filter((tool) => !seen.includes(tool));
        const deferred = seen.filter((tool) => tool.loading === 'deferred');
        const offered = toolSet.groups
          .map(({ name }) => name)
          .filter((name) => deferred.some((tool) => tool.groups.includes(name)));
        const request = (method: string, params: object = {}) => ({
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            ...params,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': VERSION,
              'io.modelcontextprotocol/clientCapabilities': { extensions: { [GROUPS]: {} } },
            },
          },
        });
        const modernAsk = (method: string, params: object = {}) =>
          ask(token, request(method, params), {
            'mcp-protocol-version': VERSION,
            'mcp-method': method,
            ...('name' in params ? { 'mcp-name': String(params.name) } : {}),
          });
        const topLevel = await modernAsk('tools/list');
        expect(names(JSON.parse(topLevel.text).result.tools)).toEqual(
          names(seen.filter((tool) => tool.loading !== 'deferred')),
        );
        const listed = await modernAsk('groups/list');
        expect(JSON.parse(listed.text).result.groups.map((group: { name: string }) => group.name)).toEqual(
          offered,
        );
        const texts = [topLevel.text, listed.text];
        for (const { name } of toolSet.groups) {
          const got = await modernAsk('groups/get', { name });
          const answer = JSON.parse(got.text);
          if (offered.includes(name))
            expect(names(answer.result.contents.tools)).toEqual(
              names(deferred.filter((tool) => tool.groups.includes(name))),
            );
          else expect(answer.error.message).toBe(`Unknown group "${name}". Groups: ${offered.join(', ')}.`);
          texts.push(got.text.replace(`Unknown group \\"${name}\\"`, ''));
        }
        for (const tool of hidden) for (const text of texts) expect(text).not.toContain(tool.name);
      }),
      { numRuns: propertyRuns(40) },
    );
  });
});

test('a server of yours with auth is refused at start, saying what to do instead', () => {
  expect(() =>
    createMcpHttpHandler(runtime, info, {
      auth: {
        issuer: 'https://auth.example.com',
        resourceMetadata: { resource: 'https://mcp.example.com/mcp' },
      },
      server: () => {
        throw new Error('never made');
      },
    }),
  ).toThrow(
    /Leave `server` out: .*modernFeatures: featureHandler\(runtime, .*registerTool into contracts with their scopes/,
  );
});

test('group endpoints with auth: each lists the caller’s tools of its group; one it sees none of is no group', async () => {
  const resource = await serveWithAuth(() => ({ groupEndpoints: true }));
  const readerToken = await auth.token('reader', resource);
  const writer = await v1Client(`${resource}/editing`, await auth.token('writer', resource));
  const reader = await v1Client(`${resource}/notes`, readerToken);
  try {
    expect(names((await writer.client.listTools()).tools)).toEqual(['publish_note', 'write_note']);
    expect(names((await reader.client.listTools()).tools)).toEqual(['read_note']);
    await expect(reader.client.callTool({ name: 'write_note', arguments: { path: 'a.md' } })).rejects.toThrow(
      /Unknown tool "write_note"\. Available tools: read_note\./,
    );
  } finally {
    await Promise.all([reader.client.close(), writer.client.close()]);
  }
  await expect(v1Client(`${resource}/editing`, readerToken)).rejects.toThrow(
    /Not Found: no group \\"editing\\"/,
  );
  // A group the caller sees nothing of and a name that is no group: the same answers, with and without a token.
  for (const token of [readerToken, undefined]) {
    const [hiddenGroup, noGroup] = await Promise.all(
      ['editing', 'nothing'].map((group) => onSession(`${resource}/${group}`, crypto.randomUUID(), token)),
    );
    expect(hiddenGroup?.status).toBe(token ? 404 : 401);
    expect(hiddenGroup?.text.replace('editing', 'nothing')).toBe(noGroup?.text);
  }
});
