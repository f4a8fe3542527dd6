import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { type McpHttpOptions, serveHttp } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { expect, test } from 'vitest';
import { z } from 'zod';

/**
 * DNS rebinding: a page on another site can make a browser send requests to a local server under
 * its own host name. `serveHttp` answers only the hosts and origins it is told to (loopback by
 * default), as the MCP specification asks.
 */
const ping = defineTool({ description: 'Ping.', input: z.object({}) });
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

async function post(options: McpHttpOptions, headers: Record<string, string>) {
  const runtime = createToolRuntime(prepareToolSet({ ping }), { handlers: { ping: () => 'pong' } });
  const server = await serveHttp(runtime, { name: 'test', version: '1.0.0' }, 0, options);
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const sent = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/mcp',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            host: `127.0.0.1:${port}`,
            ...headers,
          },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
        },
      );
      sent.on('error', reject);
      sent.end(INITIALIZE);
    });
  } finally {
    server.close();
  }
}

test.each<[string, McpHttpOptions, Record<string, string>, number, string]>([
  ['loopback, by default', {}, {}, 200, '"serverInfo"'],
  ['localhost with a port', {}, { host: 'localhost:8080' }, 200, '"serverInfo"'],
  [
    'another host name',
    {},
    { host: 'evil.example.com' },
    403,
    'Forbidden: host \\"evil.example.com\\" is not allowed',
  ],
  [
    'a browser on another site',
    {},
    { origin: 'http://evil.example.com' },
    403,
    'Forbidden: origin \\"http://evil.example.com\\" is not allowed',
  ],
  ['a loopback origin', {}, { origin: 'http://localhost:5173' }, 200, '"serverInfo"'],
  [
    'a public host name the server is told',
    { allowedHosts: ['mcp.example.com'] },
    { host: 'mcp.example.com' },
    200,
    '"serverInfo"',
  ],
  ['loopback, once other hosts are named', { allowedHosts: ['mcp.example.com'] }, {}, 403, 'Forbidden: host'],
  [
    'an origin the server is told',
    { allowedOrigins: ['https://app.example.com'] },
    { origin: 'https://app.example.com' },
    200,
    '"serverInfo"',
  ],
])('%s', async (_case, options, headers, status, body) => {
  const response = await post(options, headers);
  expect(response.status).toBe(status);
  expect(response.body).toContain(body);
});
