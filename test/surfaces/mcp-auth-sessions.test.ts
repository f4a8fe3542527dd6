import type { Server } from 'node:http';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createMcpHttpHandler, type McpHttpOptions } from 'toolprep/mcp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type AuthServer,
  type CLIENTS,
  clientCredentials,
  serveAtResource,
  startAuthServer,
} from '../support/auth-server.js';
import { runtime } from '../support/grouped-notes.js';
import { closeAll } from '../support/loopback.js';

/**
 * `auth` with 2025 sessions and with the groups draft (decision 0060), against a real
 * authorization server (`oidc-provider`): a session serves the caller that opened it, its list
 * and calls that caller's, through the official v1 client and the SDK v2 client in its 2025 mode;
 * another caller naming it, or the same caller with a token of other scopes, meets an unknown
 * session; and the groups a caller is offered hold only the deferred tools it may see, through
 * the draft and through group endpoints. The same as properties: mcp-auth-properties.test.ts.
 */

const VERSION = '2026-07-28';
const GROUPS = 'io.modelcontextprotocol/groups';
const info = { name: 'notes', version: '1.0.0' };

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
