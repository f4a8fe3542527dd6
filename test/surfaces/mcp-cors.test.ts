import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { type McpHttpOptions, serveHttp } from 'toolprep/mcp';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * CORS on both HTTP handlers (decision 0026): a browser on an allowed origin gets its preflight
 * answered and the CORS headers on every answer, whoever writes it (toolprep, its prepared bytes or
 * the SDK); another origin's preflight is refused with 403 and nothing; a request without an
 * `Origin` gets no CORS header. Each case goes through the real Node handler (over a socket) and
 * the fetch handler, in both eras.
 */

const deploy = defineTool({
  description: 'Deploy to a region.',
  input: z.object({ region: z.string(), replicas: z.number().int().optional() }),
  headers: { region: 'Region', replicas: 'Replicas' },
});
const runtime = createToolRuntime(prepareToolSet({ deploy }), {
  handlers: { deploy: ({ region }: { region: string }) => `deployed to ${region}` },
});
const info = { name: 'notes', version: '1.0.0' };

const PAGE = 'http://127.0.0.1:5173';
const MODERN = '2026-07-28';
const MCP_METHODS = 'POST, GET, DELETE, OPTIONS';
const ALLOWED_HEADERS =
  'content-type, accept, authorization, dpop, mcp-protocol-version, mcp-session-id, last-event-id, mcp-method, mcp-name, mcp-param-region, mcp-param-replicas';
const EXPOSED = 'mcp-session-id, mcp-protocol-version, www-authenticate, dpop-nonce, retry-after';

interface Sent {
  readonly method: string;
  /** The host the client asks for; loopback unless a case says otherwise. */
  readonly host?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}
interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}
type Handler = 'node' | 'fetch';

/** Sends one request to a fresh handler of `options`: Node's over a socket, or the fetch handler. */
async function exchange(handler: Handler, options: McpHttpOptions, sent: Sent): Promise<Answer> {
  if (handler === 'fetch') {
    const response = await (await connection('fetch', options)).send(sent);
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: await response.text(),
    };
  }
  // Node's own client, which sends the `Host` it is given.
  const server = await serveHttp(runtime, info, 0, options);
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<Answer>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: sent.method,
          path: '/mcp',
          headers: { host: sent.host ?? `127.0.0.1:${port}`, ...sent.headers },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers as Record<string, string>,
              body,
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(sent.body);
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const preflight = (origin: string, method = 'POST'): Sent => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'content-type, mcp-protocol-version, mcp-method, mcp-param-region',
  },
});
const JSON_POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = (headers: Record<string, string> = {}): Sent => ({
  method: 'POST',
  headers: { ...JSON_POST, ...headers },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
  }),
});
const modern = (method: string, params: object, headers: Record<string, string> = {}): Sent => ({
  method: 'POST',
  headers: { ...JSON_POST, 'mcp-protocol-version': MODERN, 'mcp-method': method, ...headers },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'page', version: '1' },
      },
    },
  }),
});
const deployCall = (headers: Record<string, string>) =>
  modern(
    'tools/call',
    { name: 'deploy', arguments: { region: 'eu-west' } },
    { 'mcp-name': 'deploy', 'mcp-param-region': 'eu-west', ...headers },
  );

/** What CORS an answer carries: an allowed origin's, a preflight's besides, or none at all. */
type Cors = 'answer' | 'preflight' | 'none';
const CASES: readonly [string, McpHttpOptions, Sent, number, Cors, string][] = [
  ['a preflight from a loopback page, by default', {}, preflight(PAGE), 204, 'preflight', ''],
  ['a preflight for DELETE (a 2025 session ending)', {}, preflight(PAGE, 'DELETE'), 204, 'preflight', ''],
  [
    'a preflight from an origin the server is told',
    { allowedOrigins: ['https://app.example.com'] },
    preflight('https://app.example.com'),
    204,
    'preflight',
    '',
  ],
  [
    'a preflight from another site',
    {},
    preflight('https://evil.example.com'),
    403,
    'none',
    'Forbidden: origin \\"https://evil.example.com\\" is not allowed (allowedOrigins: loopback)',
  ],
  [
    'a preflight from loopback once origins are named',
    { allowedOrigins: ['https://app.example.com'] },
    preflight(PAGE),
    403,
    'none',
    'a named list replaces the loopback default',
  ],
  [
    'a preflight from an allowed origin to a host not allowed',
    {},
    { ...preflight(PAGE), host: 'evil.example.com' },
    403,
    'none',
    'Forbidden: host \\"evil.example.com\\" is not allowed',
  ],
  ['an OPTIONS without an Origin', {}, { method: 'OPTIONS' }, 204, 'none', ''],
  [
    '2025: initialize from an allowed origin',
    {},
    initialize({ origin: PAGE }),
    200,
    'answer',
    '"serverInfo"',
  ],
  [
    '2025: initialize from an allowed origin, with sessions',
    { sessions: true },
    initialize({ origin: PAGE }),
    200,
    'answer',
    '"serverInfo"',
  ],
  ['2025: initialize without an Origin', {}, initialize(), 200, 'none', '"serverInfo"'],
  [
    '2025: initialize from another site',
    {},
    initialize({ origin: 'https://evil.example.com' }),
    403,
    'none',
    'Forbidden: origin',
  ],
  [
    '2025: a GET stream without its session (the SDK answers)',
    { sessions: true },
    { method: 'GET', headers: { origin: PAGE, accept: 'text/event-stream' } },
    400,
    'answer',
    'No valid session ID provided',
  ],
  [
    '2026-07-28: tools/list from an allowed origin',
    {},
    modern('tools/list', {}, { origin: PAGE }),
    200,
    'answer',
    '"resultType":"complete"',
  ],
  [
    '2026-07-28: tools/call with its Mcp-Param header, from an allowed origin',
    {},
    deployCall({ origin: PAGE }),
    200,
    'answer',
    'deployed to eu-west',
  ],
  [
    '2026-07-28: a header mismatch, from an allowed origin',
    {},
    deployCall({ origin: PAGE, 'mcp-param-region': 'us-east' }),
    400,
    'answer',
    '-32020',
  ],
  [
    '2026-07-28: a GET from an allowed origin',
    {},
    { method: 'GET', headers: { origin: PAGE, 'mcp-protocol-version': MODERN } },
    405,
    'answer',
    '2026-07-28 requests are POSTs',
  ],
  ['2026-07-28: tools/list without an Origin', {}, modern('tools/list', {}), 200, 'none', '"tools"'],
  [
    '2026-07-28: tools/list from another site',
    {},
    modern('tools/list', {}, { origin: 'https://evil.example.com' }),
    403,
    'none',
    'Forbidden: origin',
  ],
  [
    '2026-07-28: an answer of your own server whose headers cannot change (modernFeatures)',
    { modernFeatures: async () => Response.redirect('https://notes.example.com/moved', 307) },
    modern('server/discover', {}, { origin: PAGE }),
    307,
    'answer',
    '',
  ],
  [
    'a body over the limit, from an allowed origin',
    { maxBodyBytes: 64 },
    modern('tools/list', {}, { origin: PAGE }),
    413,
    'answer',
    'Payload Too Large',
  ],
];

describe.each<Handler>(['node', 'fetch'])('CORS through the %s handler', (handler) => {
  test.each(CASES)('%s', async (_case, options, sent, status, cors, body) => {
    const answer = await exchange(handler, options, sent);
    expect(answer.status).toBe(status);
    expect(answer.body).toContain(body);
    const origin = sent.headers?.origin;
    const corsHeaders = Object.fromEntries(
      Object.entries(answer.headers).filter(
        ([name]) => name.startsWith('access-control-') || name === 'vary',
      ),
    );
    if (cors === 'none') expect(corsHeaders).toEqual({});
    else
      expect(corsHeaders).toEqual({
        'access-control-allow-origin': origin,
        vary: 'Origin',
        'access-control-expose-headers': EXPOSED,
        ...(cors === 'preflight'
          ? {
              'access-control-allow-methods': MCP_METHODS,
              'access-control-allow-headers': ALLOWED_HEADERS,
              'access-control-max-age': '7200',
            }
          : {}),
      });
    if (sent.method === 'OPTIONS' && status === 204) {
      expect(answer.headers.allow).toBe(MCP_METHODS);
      expect(answer.body).toBe('');
    }
  });

  test('2025 with sessions: the session id is exposed, and the SDK’s answers to the session carry CORS', async () => {
    const handle = await connection(handler, { sessions: true });
    try {
      const started = await handle.send(initialize({ origin: PAGE }));
      const session = started.headers.get('mcp-session-id');
      expect(session).toMatch(/.+/);
      expect(started.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
      const inSession = {
        origin: PAGE,
        'mcp-session-id': session as string,
        'mcp-protocol-version': '2025-11-25',
      };
      const call = await handle.send({
        method: 'POST',
        headers: { ...JSON_POST, ...inSession },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'deploy', arguments: { region: 'eu-west' } },
        }),
      });
      expect(call.status).toBe(200);
      expect(await call.text()).toContain('deployed to eu-west');
      expect(call.headers.get('access-control-allow-origin')).toBe(PAGE);
      const ended = await handle.send({ method: 'DELETE', headers: inSession });
      expect(ended.status).toBe(200);
      expect(ended.headers.get('access-control-allow-origin')).toBe(PAGE);
      expect(ended.headers.get('vary')).toBe('Origin');
    } finally {
      handle.close();
    }
  });
});

/** One handler kept for several requests, sent to as fetch sends: Node's over a socket. */
async function connection(
  handler: Handler,
  options: McpHttpOptions,
): Promise<{ send(sent: Sent): Promise<Response>; close(): void }> {
  const init = (sent: Sent): RequestInit => ({
    method: sent.method,
    ...(sent.headers ? { headers: sent.headers } : {}),
    ...(sent.body === undefined ? {} : { body: sent.body }),
  });
  if (handler === 'fetch') {
    const handle = createMcpFetchHandler(runtime, info, options);
    return {
      send: (sent) => handle(new Request(`http://${sent.host ?? 'localhost'}/mcp`, init(sent))),
      close: () => {},
    };
  }
  const server = await serveHttp(runtime, info, 0, options);
  const url = `http://localhost:${(server.address() as AddressInfo).port}/mcp`;
  return {
    send: (sent) => fetch(url, init(sent)),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
