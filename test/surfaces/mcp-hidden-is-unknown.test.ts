import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMcpHttpHandler } from 'toolprep/mcp';
import { jwtVerifier } from 'toolprep/mcp/jwt';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime, type ToolError } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { toolSet } from '../support/grouped-notes.js';

/**
 * With `auth`, a tool outside a caller's view is one the caller does not have (decision 0073): a
 * call of it, from the official SDK v2 (2026-07-28) and v1 (2025) clients, gets the very error of
 * a call of a tool that exists nowhere, and the runtime's `error` hook sees both alike. The same
 * at a group's endpoint for a tool of another group, whose callers the handler's one gate checks.
 */

const info = { name: 'notes', version: '1.0.0' };
const refused: { tool: string; error: ToolError }[] = [];
const runtime = createToolRuntime(toolSet, {
  handlers: {
    status: () => 'up',
    whoami: () => 'someone',
    read_note: ({ path }: { path: string }) => `note ${path}`,
    write_note: ({ path }: { path: string }) => `wrote ${path}`,
    publish_note: ({ path }: { path: string }) => `published ${path}`,
  },
  hooks: { error: ({ tool, error }) => refused.push({ tool, error }) },
});

let origin: string;
let close: () => void;
beforeAll(async () => {
  // Tokens the test's own verifier reads: `subject~scope+scope`.
  const handler = createMcpHttpHandler(runtime, info, {
    auth: {
      verify: async (token) => {
        const [subject = '', scopes = ''] = token.split('~');
        return { subject, scopes: scopes.split('+').filter(Boolean) };
      },
      resourceMetadata: { resource: 'http://localhost/mcp', authorizationServers: ['http://localhost'] },
    },
    groupEndpoints: true,
  });
  const server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close?.());

const headersOf = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

/** What a client is told for a call: the error's code and message, however the SDK raised it. */
type Caller = (name: string) => Promise<{ code: unknown; message: string }>;

const callerOf =
  (client: Pick<Client, 'callTool'> | Pick<ClientV1, 'callTool'>): Caller =>
  (name) =>
    client.callTool({ name, arguments: { path: 'a.md' } }).then(
      (result) => ({ code: 'answered', message: JSON.stringify(result) }),
      (error: { code: unknown; message: string }) => ({ code: error.code, message: error.message }),
    );

async function v2Caller(path: string, token: string): Promise<[Caller, () => Promise<void>]> {
  const client = new Client(info, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(path, origin), headersOf(token)));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  return [callerOf(client), () => client.close()];
}

async function v1Caller(path: string, token: string): Promise<[Caller, () => Promise<void>]> {
  const client = new ClientV1(info);
  await client.connect(new TransportV1(new URL(path, origin), headersOf(token)));
  return [callerOf(client), () => client.close()];
}

// Where a caller calls a tool outside its view: the whole set, where its scopes hide the tool, and a
// group's endpoint, where the tool is another group's.
const outsideTheView = [
  { where: '/mcp', token: 'ann~notes:read', hidden: 'write_note', sees: 'status, whoami, read_note' },
  {
    where: '/mcp/editing',
    token: 'ann~notes:read+notes:write',
    hidden: 'read_note',
    sees: 'write_note, publish_note',
  },
];

describe.each([
  ['2026-07-28 (SDK v2 client)', v2Caller],
  ['2025 (SDK v1 client)', v1Caller],
])('%s', (_era, connect) => {
  test.each(outsideTheView)(
    'at $where, $hidden is refused as a tool that does not exist, and the hook sees it',
    async ({ where, token, hidden, sees }) => {
      const [call, done] = await connect(where, token);
      try {
        refused.length = 0;
        const outside = await call(hidden);
        const unknown = await call('no_such_tool');
        expect(unknown.code).toBe(-32602);
        expect(outside).toEqual({
          code: unknown.code,
          message: unknown.message.replace('no_such_tool', hidden),
        });
        expect(outside.message).toContain(`Unknown tool "${hidden}". Available tools: ${sees}.`);
        expect(refused.map(({ tool, error }) => [tool, error.code])).toEqual([
          [hidden, 'UNKNOWN_TOOL'],
          ['no_such_tool', 'UNKNOWN_TOOL'],
        ]);
        // What the caller sees still runs.
        expect((await call(sees.split(', ').at(-1) as string)).code).toBe('answered');
      } finally {
        await done();
      }
    },
  );
});

test('one token verifier per handler: its group endpoints check tokens through it', async () => {
  const made: unknown[] = [];
  const handle = createMcpFetchHandler(runtime, info, {
    auth: {
      issuer: 'https://issuer.example.com',
      // jose's verifier, counted as the handler makes it (it fetches the issuer's keys on the first token).
      jwtVerifier: (options) => {
        made.push(options);
        return jwtVerifier(options);
      },
      resourceMetadata: { resource: 'http://localhost/mcp' },
    },
    groupEndpoints: true,
  });
  for (const path of ['/mcp', '/mcp/notes', '/mcp/editing', '/mcp/service']) {
    const response = await handle(
      new Request(new URL(path, 'http://localhost'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(response.status, path).toBe(401);
    expect(response.headers.get('www-authenticate'), path).toContain('resource_metadata=');
  }
  expect(made).toHaveLength(1);
});
