import type { AddressInfo } from 'node:net';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { type McpHttpOptions, type McpToolContext, serveHttp } from 'toolprep/mcp';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { requestHeaders, requestMeta } from '../../scripts/mcp-2026-wire.mjs';

/**
 * What the HTTP exchange does when something fails under it, the same on Node and fetch: the
 * client gets `-32603` "Internal error" (never the error's text, which may name paths), `onerror`
 * gets the error, and a call whose client went away is stopped (decision 0036).
 */

const wait = defineTool({ description: 'Wait until cancelled.', input: z.object({}) });
const INFO = { name: 'failures', version: '1.0.0' };
let stopped = 0;
const runtime = createToolRuntime(prepareToolSet({ wait }), {
  handlers: {
    wait: (_args: object, context: McpToolContext) =>
      new Promise((resolve) => {
        context.signal.addEventListener('abort', () => {
          stopped++;
          resolve('stopped');
        });
      }),
  },
});

const LEGACY = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const legacyCall = (name: string) =>
  JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } });
const failingServer: McpHttpOptions['server'] = () => {
  throw new Error('cannot read /srv/secret/config.json');
};

describe.each([
  ['Node (serveHttp)', 'node'],
  ['fetch (createMcpFetchHandler)', 'fetch'],
] as const)('%s', (_name, runtimeKind) => {
  let send: (body: string, headers: Record<string, string>, signal?: AbortSignal) => Promise<Response>;
  const reported: Error[] = [];
  let close = () => {};

  beforeAll(async () => {
    const options: McpHttpOptions = { server: failingServer, onerror: (error) => reported.push(error) };
    if (runtimeKind === 'fetch') {
      const handle = createMcpFetchHandler(runtime, INFO, options);
      send = (body, headers, signal) =>
        handle(
          new Request('http://localhost/mcp', {
            method: 'POST',
            headers,
            body,
            ...(signal ? { signal } : {}),
          }),
        );
      return;
    }
    const server = await serveHttp(runtime, INFO, 0, options);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    send = (body, headers, signal) =>
      fetch(url, { method: 'POST', headers, body, ...(signal ? { signal } : {}) });
    close = () => {
      server.closeAllConnections();
      server.close();
    };
  });
  afterAll(() => close());

  test('a failure inside the server is -32603 "Internal error" to the client and the error to onerror', async () => {
    const response = await send(legacyCall('wait'), LEGACY);
    expect(response.status).toBe(500);
    const body = await response.text();
    expect(JSON.parse(body)).toEqual({
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
      id: null,
    });
    expect(body).not.toContain('/srv/secret');
    expect(reported.at(-1)?.message).toContain('cannot read /srv/secret/config.json');
  });

  test('the tasks methods stay toolprep’s, even with a feature server, when no tool runs as a task', async () => {
    const params = { taskId: 'x', _meta: requestMeta({}) };
    const handle = createMcpFetchHandler(runtime, INFO, {
      modernFeatures: async () => new Response('{"forwarded":true}', { status: 200 }),
    });
    const response = await handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: requestHeaders('tasks/get', params),
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params }),
      }),
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      id: 1,
      error: { code: -32601, message: 'Method not found: tasks/get (no tool runs as a task)' },
    });
  });
});

test('a stateless 2025 call whose client goes away is stopped: its server is closed, its handler’s signal aborted', async () => {
  const server = await serveHttp(runtime, INFO, 0, {});
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  try {
    const before = stopped;
    const controller = new AbortController();
    const call = fetch(url, {
      method: 'POST',
      headers: LEGACY,
      body: legacyCall('wait'),
      signal: controller.signal,
    });
    // The handler is running once the request is in; then the client goes.
    await new Promise((resolve) => setTimeout(resolve, 300));
    controller.abort();
    await call.catch(() => {});
    for (let tries = 0; stopped === before && tries < 100; tries++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(before + 1);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
