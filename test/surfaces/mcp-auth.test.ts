import type { Server } from 'node:http';
import { inspect } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createMcpHttpHandler, type McpHttpOptions } from 'toolprep/mcp';
import { createMcpFetchHandler as createModernFetchHandler } from 'toolprep/mcp/fetch';
import { jwtVerifier } from 'toolprep/mcp/jwt';
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

/**
 * The OAuth resource-server gate (decision 0054) against a real authorization server
 * (`oidc-provider`, client-credentials JWT access tokens for the server's resource): the official
 * SDK v2 client getting its own token with its `ClientCredentialsProvider`, the v1 client with a
 * bearer header, each caller listing and calling only what its scopes allow on both eras, the
 * step-up 403, every kind of bad token refused 401, and tasks and request state bound to the caller.
 */

const VERSION = '2026-07-28';
const info = { name: 'notes', version: '1.0.0' };

// A handler reports who called it, and whether anything of the token reached its context.
// biome-ignore lint/suspicious/noExplicitAny: the context differs by era; the test reads what it holds.
const whoCalled = (context: any) =>
  JSON.stringify({
    subject: context.caller?.subject,
    scopes: context.caller?.scopes,
    sawToken: Boolean(context.requestInfo?.headers?.authorization) || Boolean(context.authInfo?.token),
  });

const contracts = {
  ...noteContracts,
  exportNotes: defineTool({
    description: 'Export every note.',
    input: z.object({}),
    task: 'optional',
    scopes: ['notes:read'],
  }),
};
// The contracts name their scopes; `public` is the config's (as the build records it).
const base = prepareToolSet(contracts);
const toolSet = {
  ...base,
  prepared: base.prepared.map((tool) =>
    tool.name === 'status' ? { ...tool, access: { public: true as const } } : tool,
  ),
};
let writes = 0;
const handlers = {
  status: () => 'up',
  whoami: (_args: object, context: unknown) => whoCalled(context),
  read_note: ({ path }: { path: string }) => `note ${path}`,
  // biome-ignore lint/suspicious/noExplicitAny: the MCP context.
  write_note: async ({ path }: { path: string }, context: any) => {
    const answer = await context.elicit({
      message: `Overwrite ${path}?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
    });
    writes++;
    return `${answer.action} ${path}`;
  },
  export_notes: (_args: object, context: unknown) => whoCalled(context),
};
const runtime = createToolRuntime(toolSet, { handlers });

let auth: AuthServer;
const servers: Server[] = [];

/** A toolprep server with `auth` on a loopback port: its URL is known before the options that name it. */
const serveWithAuth = (extra: (resource: string) => Partial<McpHttpOptions> = () => ({})) =>
  serveAtResource(servers, (resource) =>
    createMcpHttpHandler(runtime, info, {
      auth: { issuer: auth.issuer, resourceMetadata: { resource } },
      requestState: { key: 'k'.repeat(32) },
      ...extra(resource),
    }),
  );

let hidden: { origin: string; resource: string };
let stepUp: { origin: string; resource: string };
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

async function v2Client(resource: string, clientId: keyof typeof CLIENTS): Promise<Client> {
  const client = new Client(info, { versionNegotiation: { mode: 'auto' } });
  const authProvider = clientCredentials(auth, clientId);
  await client.connect(new StreamableHTTPClientTransport(new URL(resource), { authProvider }));
  expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
  return client;
}

async function v1Client(resource: string, token: string): Promise<ClientV1> {
  const client = new ClientV1(info);
  await client.connect(
    new TransportV1(new URL(resource), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** A raw 2026-07-28 request with this authorization. */
async function post(resource: string, authorization: string | undefined, method: string, params: object) {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': {
      elicitation: {},
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    },
  };
  const response = await fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': method,
      ...('name' in params ? { 'mcp-name': String(params.name) } : {}),
      ...('taskId' in params ? { 'mcp-name': String(params.taskId) } : {}),
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta } }),
  });
  const text = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC answer, read by the assertions.
    json: (text ? JSON.parse(text) : undefined) as any,
    text,
  };
}
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name).sort();
const READER = ['export_notes', 'read_note', 'status', 'whoami'];
const WRITER = ['export_notes', 'read_note', 'status', 'whoami', 'write_note'];

describe('each caller lists and calls what its scopes allow', () => {
  test('2026-07-28: the SDK v2 client gets its own token, and two clients see two lists', async () => {
    const reader = await v2Client(hidden.resource, 'reader');
    const writer = await v2Client(hidden.resource, 'writer');
    try {
      expect(names((await reader.listTools()).tools)).toEqual(READER);
      expect(names((await writer.listTools()).tools)).toEqual(WRITER);
      const called = await reader.callTool({ name: 'whoami', arguments: {} });
      expect(JSON.parse((called.content as { text: string }[])[0]?.text as string)).toEqual({
        subject: 'reader',
        scopes: ['notes:read'],
        sawToken: false,
      });
    } finally {
      await Promise.all([reader.close(), writer.close()]);
    }
  });

  test('2025: the v1 client with a bearer header sees its list, and its handler the caller without the token', async () => {
    const reader = await v1Client(hidden.resource, await auth.token('reader', hidden.resource));
    const writer = await v1Client(hidden.resource, await auth.token('writer', hidden.resource));
    try {
      expect(names((await reader.listTools()).tools)).toEqual(READER);
      expect(names((await writer.listTools()).tools)).toEqual(WRITER);
      const called = await writer.callTool({ name: 'whoami', arguments: {} });
      expect(JSON.parse((called.content as { text: string }[])[0]?.text as string)).toEqual({
        subject: 'writer',
        scopes: ['notes:read', 'notes:write'],
        sawToken: false,
      });
    } finally {
      await Promise.all([reader.close(), writer.close()]);
    }
  });

  test('a list that differs by caller says so: cacheScope private', async () => {
    const token = await auth.token('reader', hidden.resource);
    const listed = await post(hidden.resource, `Bearer ${token}`, 'tools/list', {});
    expect(listed.json.result).toMatchObject({ resultType: 'complete', cacheScope: 'private' });
  });

  test.each([
    ['2026-07-28', 'modern'],
    ['2025', 'legacy'],
  ])('%s: a tool the caller may not see is an unknown tool, and no answer names it', async (_era, era) => {
    const token = await auth.token('reader', hidden.resource);
    let message: string;
    if (era === 'modern') {
      const refused = await post(hidden.resource, `Bearer ${token}`, 'tools/call', {
        name: 'write_note',
        arguments: { path: 'a.md' },
      });
      const unknown = await post(hidden.resource, `Bearer ${token}`, 'tools/call', {
        name: 'no_such_tool',
        arguments: {},
      });
      expect(refused.json.error.code).toBe(unknown.json.error.code);
      message = refused.json.error.message;
      expect(unknown.text).not.toContain('write_note');
    } else {
      const client = await v1Client(hidden.resource, token);
      try {
        const refused = client.callTool({ name: 'write_note', arguments: { path: 'a.md' } });
        await expect(refused).rejects.toThrow(/Unknown tool "write_note"/);
        message = ((await refused.catch((error: Error) => error)) as Error).message;
        await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
          /Unknown tool "no_such_tool"\. Available tools: (?!.*write_note)/,
        );
      } finally {
        await client.close();
      }
    }
    expect(message).toMatch(/^(MCP error -32602: )?Unknown tool "write_note"\. Available tools: /);
    expect(message.replace('"write_note"', '')).not.toContain('write_note');
    expect(writes).toBe(0);
  });
});

describe('the challenge and the metadata', () => {
  test('no token: 401 pointing at the protected resource metadata, served at both of its paths', async () => {
    const answer = await post(hidden.resource, undefined, 'tools/list', {});
    expect(answer.status).toBe(401);
    const metadataUrl = `${hidden.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(answer.challenge).toBe(`Bearer resource_metadata="${metadataUrl}"`);
    for (const url of [metadataUrl, `${hidden.origin}/.well-known/oauth-protected-resource`]) {
      const metadata = await fetch(url);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toEqual({
        resource: hidden.resource,
        authorization_servers: [auth.issuer],
        bearer_methods_supported: ['header'],
      });
    }
  });

  test('no token: a public tool answers a call; any other name asks for a token, hidden or unknown alike', async () => {
    const status = await post(hidden.resource, undefined, 'tools/call', { name: 'status', arguments: {} });
    expect(status.json.result).toMatchObject({ content: [{ text: 'up' }] });
    for (const name of ['write_note', 'no_such_tool']) {
      const refused = await post(hidden.resource, undefined, 'tools/call', { name, arguments: {} });
      expect(refused.status).toBe(401);
      expect(refused.text).not.toContain(name);
    }
  });

  test('step-up: every tool listed, a call without its scope 403 naming only the scope, then a broader token', async () => {
    const narrow = await auth.token('reader', stepUp.resource);
    const listed = await post(stepUp.resource, `Bearer ${narrow}`, 'tools/list', {});
    expect(names(listed.json.result.tools)).toEqual(WRITER);
    const call = { name: 'write_note', arguments: { path: 'a.md' } };
    const refused = await post(stepUp.resource, `Bearer ${narrow}`, 'tools/call', call);
    expect(refused.status).toBe(403);
    expect(refused.challenge).toBe(
      `Bearer error="insufficient_scope", scope="notes:write", resource_metadata="${stepUp.origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    expect(refused.text).not.toContain('write_note');
    expect(writes).toBe(0);
    const broad = await auth.token('writer', stepUp.resource);
    const allowed = await post(stepUp.resource, `Bearer ${broad}`, 'tools/call', call);
    expect(allowed.status).toBe(200);
    expect(allowed.json.result).toMatchObject({ resultType: 'input_required' });
  });

  test.each<[string, (resource: string) => Promise<string>, RegExp]>([
    ['expired', (resource) => auth.sign({ exp: Math.floor(Date.now() / 1000) - 60 }, resource), /expired/],
    ['for another audience', (resource) => auth.sign({ aud: 'https://other.example/mcp' }, resource), /aud/],
    ['from another issuer', (resource) => auth.sign({ iss: 'https://issuer.example' }, resource), /iss/],
    [
      'badly signed',
      async (resource) => {
        const [header, payload, signature] = (await auth.sign({}, resource)).split('.') as [
          string,
          string,
          string,
        ];
        return `${header}.${payload}.${signature.slice(0, -4)}AAAA`;
      },
      /signature/,
    ],
    [
      'unsigned (alg none)',
      async (resource) => {
        const [, payload] = (await auth.sign({}, resource)).split('.') as [string, string];
        return `${btoa(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).replace(/=+$/, '')}.${payload}.`;
      },
      /algorithm|not a valid JWT/,
    ],
    ['not a JWT', async () => 'opaque-token', /not a valid JWT/],
  ])('a token %s is refused: 401 invalid_token', async (_case, tokenOf, why) => {
    const token = await tokenOf(hidden.resource);
    const answer = await post(hidden.resource, `Bearer ${token}`, 'tools/call', {
      name: 'whoami',
      arguments: {},
    });
    expect(answer.status).toBe(401);
    expect(answer.challenge).toMatch(
      /^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/,
    );
    expect(answer.json.error_description).toMatch(why);
    expect(answer.text).not.toContain(token);
  });
});

describe('what a caller holds is its own', () => {
  test('a task created by one caller is not found by another', async () => {
    const reader = `Bearer ${await auth.token('reader', hidden.resource)}`;
    const writer = `Bearer ${await auth.token('writer', hidden.resource)}`;
    const created = await post(hidden.resource, reader, 'tools/call', {
      name: 'export_notes',
      arguments: {},
    });
    expect(created.json.result).toMatchObject({ resultType: 'task' });
    const { taskId } = created.json.result as { taskId: string };
    const own = await post(hidden.resource, reader, 'tasks/get', { taskId });
    expect(own.json.result).toMatchObject({ taskId });
    const other = await post(hidden.resource, writer, 'tasks/get', { taskId });
    expect(other.json.error).toMatchObject({ code: -32602 });
  });

  test('request state minted for one caller is refused for another', async () => {
    const writer = `Bearer ${await auth.token('writer', hidden.resource)}`;
    // Another caller with the same scopes: a token the issuer signed for another subject.
    const other = `Bearer ${await auth.sign({ sub: 'someone-else' }, hidden.resource)}`;
    const call = { name: 'write_note', arguments: { path: 'b.md' } };
    const first = await post(hidden.resource, writer, 'tools/call', call);
    const { requestState, inputRequests } = first.json.result as {
      requestState: string;
      inputRequests: Record<string, unknown>;
    };
    const inputResponses = Object.fromEntries(
      Object.keys(inputRequests).map((key) => [key, { action: 'accept', content: { confirm: true } }]),
    );
    const stolen = await post(hidden.resource, other, 'tools/call', {
      ...call,
      requestState,
      inputResponses,
    });
    expect(stolen.json.error).toMatchObject({ message: 'requestState refused: it belongs to another call' });
    const own = await post(hidden.resource, writer, 'tools/call', { ...call, requestState, inputResponses });
    expect(own.json.result).toMatchObject({ resultType: 'complete', content: [{ text: 'accept b.md' }] });
  });
});

describe('nothing of the token reaches a hook or a log', () => {
  test('hooks, onerror and answers never hold the token, on both eras, even when verify throws it', async () => {
    const seen: unknown[] = [];
    const hooked = createToolRuntime(toolSet, {
      handlers: {
        ...handlers,
        read_note: () => {
          throw new Error('the disk is gone');
        },
      },
      hooks: {
        before: (event) => seen.push(event),
        after: (event) => seen.push(event),
        error: (event) => seen.push(event),
      },
    });
    const reported: Error[] = [];
    const secret = 'reader-secret-0f3a9c';
    const served = await serveAtResource(servers, (resource) =>
      createMcpHttpHandler(hooked, info, {
        auth: {
          async verify(token) {
            if (token.startsWith('explode')) throw new Error(`cannot read the token ${token}`);
            return token === secret ? { subject: 'reader', scopes: ['notes:read'], claims: {} } : undefined;
          },
          resourceMetadata: { resource, authorizationServers: [auth.issuer] },
        },
        onerror: (error) => reported.push(error),
      }),
    );
    const answers: string[] = [];

    const thrown = await post(served.resource, 'Bearer explode-secret-77e1', 'tools/list', {});
    answers.push(thrown.text);
    expect(thrown.status).toBe(500);
    expect(reported.map((error) => error.message)).toEqual([
      '[toolprep] an MCP request failed inside the server: cannot read the token [token]',
    ]);

    for (const [name, args] of [
      ['whoami', {}],
      ['read_note', { path: 'a.md' }],
      ['read_note', { path: 7 }],
      ['write_note', { path: 'a.md' }],
    ] as const) {
      answers.push(
        (await post(served.resource, `Bearer ${secret}`, 'tools/call', { name, arguments: args })).text,
      );
    }
    const legacy = await v1Client(served.resource, secret);
    try {
      answers.push(JSON.stringify(await legacy.callTool({ name: 'whoami', arguments: {} })));
      answers.push(JSON.stringify(await legacy.callTool({ name: 'read_note', arguments: { path: 'a.md' } })));
    } finally {
      await legacy.close();
    }

    // Each hook fired (both eras' calls, the failing handler, the refused arguments) and said who called.
    expect(seen.length).toBeGreaterThanOrEqual(10);
    expect(answers.join('\n')).toContain('"subject\\":\\"reader');
    const everything = inspect(
      [seen, reported.map((error) => [error.message, error.stack, error.cause]), answers],
      {
        depth: 12,
        maxArrayLength: null,
        maxStringLength: null,
      },
    );
    expect(everything).not.toContain(secret);
    expect(everything).not.toContain('explode-secret-77e1');
  });
});

describe('the web-standard handlers are given the JWT verifier (decision 0067)', () => {
  const resource = 'http://localhost/mcp';
  const handlers = {
    'toolprep/mcp/web': createMcpFetchHandler,
    'toolprep/mcp/fetch': createModernFetchHandler,
  };

  test.each(Object.keys(handlers))(
    '%s: auth.issuer without auth.jwtVerifier is refused at start, naming the import',
    (entry) => {
      const create = handlers[entry as keyof typeof handlers];
      expect(() =>
        create(runtime, info, { auth: { issuer: auth.issuer, resourceMetadata: { resource } } }),
      ).toThrow(
        "[toolprep] auth.issuer needs auth.jwtVerifier in a web-standard handler: import { jwtVerifier } from 'toolprep/mcp/jwt'",
      );
    },
  );

  test.each(Object.keys(handlers))(
    '%s: with toolprep/mcp/jwt’s verifier, a token of the issuer lists the caller’s tools; another is refused',
    async (entry) => {
      const create = handlers[entry as keyof typeof handlers];
      const handler = create(runtime, info, {
        auth: { issuer: auth.issuer, jwtVerifier, resourceMetadata: { resource } },
      });
      const connect = async (token: string) => {
        const client = new Client(info, { versionNegotiation: { mode: { pin: VERSION } } });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(resource), {
            fetch: (url, init) => handler(new Request(url, init)),
            requestInit: { headers: { authorization: `Bearer ${token}` } },
          }),
        );
        return client;
      };
      const reader = await connect(await auth.sign({ sub: 'reader', scope: 'notes:read' }, resource));
      expect((await reader.listTools()).tools.map((tool) => tool.name)).toEqual([
        'status',
        'whoami',
        'read_note',
        'export_notes',
      ]);
      await reader.close();
      const expired = await auth.sign({ sub: 'reader', exp: Math.floor(Date.now() / 1000) - 60 }, resource);
      await expect(connect(expired).then((client) => client.listTools())).rejects.toThrow(/401|expired/);
    },
  );

  test('a modernFeatures handler gets the request without the token; verify beside the JWT options is refused', async () => {
    const authorizations: (string | null)[] = [];
    const served = await serveAtResource(servers, (resource) =>
      createMcpHttpHandler(runtime, info, {
        auth: { issuer: auth.issuer, resourceMetadata: { resource } },
        modernFeatures: async (request) => {
          authorizations.push(request.headers.get('authorization'));
          return Response.json({ jsonrpc: '2.0', id: 1, result: { resultType: 'complete', prompts: [] } });
        },
      }),
    );
    const token = await auth.token('reader', served.resource);
    const answer = await post(served.resource, `Bearer ${token}`, 'prompts/list', {});
    expect(answer.json.result.prompts).toEqual([]);
    expect(authorizations).toEqual([null]);

    expect(() =>
      createMcpHttpHandler(runtime, info, {
        auth: {
          verify: async () => undefined,
          audience: 'https://mcp.example.com/mcp',
          clockToleranceSec: 30,
          resourceMetadata: { resource: 'https://mcp.example.com/mcp', authorizationServers: [auth.issuer] },
        } as never,
      }),
    ).toThrow(
      '[toolprep] auth.verify checks tokens itself, so auth.audience, auth.clockToleranceSec would be ignored: leave them out, or leave verify out to verify JWTs',
    );
  });
});
