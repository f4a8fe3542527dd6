import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { prepareToolSet } from '@toolprep/build';
import { build } from 'esbuild';
import { defineTool } from 'toolprep';
import { createMcpHttpHandler } from 'toolprep/mcp';
import { createToolRuntime } from 'toolprep/runtime';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { type Browser, launchChromium } from '../support/chromium.js';
import { REPO } from '../support/fixture-project.js';
import { closeAll, listenOnLoopback } from '../support/loopback.js';
import type { PageClients, PageOutcome } from '../support/mcp-browser-clients.js';
import { needs } from '../support/services.js';

/**
 * toolprep's HTTP server from a real browser on another origin (decision 0026): headless Chromium
 * opens a page served on one loopback origin (http://127.0.0.1:A), whose script — the official MCP
 * clients bundled for the browser — lists the tools of and calls a tool on the server at another
 * (http://localhost:B), in a 2025 session and statelessly on 2026-07-28. The browser itself
 * enforces CORS: the preflights, the `Mcp-Param-*` header, the session id read from an answer. A
 * page on an origin the server was not told is refused at its preflight. Skipped without Chromium
 * (under CI, failed).
 */

const chromium = needs('chromium');

const countNotes = defineTool({
  description: 'Count the notes in a folder.',
  input: z.object({ folder: z.string() }),
});
const deploy = defineTool({
  description: 'Deploy to a region.',
  input: z.object({ region: z.string() }),
  headers: { region: 'Region' },
});
const runtime = createToolRuntime(prepareToolSet({ countNotes, deploy }), {
  handlers: {
    count_notes: ({ folder }: { folder: string }) => `3 notes in ${folder}`,
    deploy: ({ region }: { region: string }) => `deployed to ${region}`,
  },
});
const TOOLS = ['count_notes', 'deploy'];

interface Seen {
  readonly method: string;
  readonly origin: string | undefined;
  readonly status: number;
}

let browser: Browser;
let mcpUrl: string;
let allowedPage: string;
let otherPage: string;
const servers: Server[] = [];
const seen: Seen[] = [];

const listen = (server: Server): Promise<number> => listenOnLoopback(server, servers);

/** A page server: the page and its script, the MCP clients bundled for the browser. */
async function pageServer(script: string): Promise<string> {
  const port = await listen(
    createServer((request, response) => {
      if (request.url === '/clients.js')
        response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><title>MCP</title><script type="module" src="/clients.js"></script>');
    }),
  );
  return `http://127.0.0.1:${port}`;
}

beforeAll(async () => {
  if (!chromium.present) return;
  const bundled = await build({
    entryPoints: [path.join(REPO, 'test/support/mcp-browser-clients.ts')],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  const script = bundled.outputFiles[0]?.text ?? '';
  allowedPage = await pageServer(script);
  otherPage = await pageServer(script);
  const handle = createMcpHttpHandler(
    runtime,
    { name: 'notes', version: '1.0.0' },
    {
      sessions: true,
      allowedOrigins: [allowedPage],
    },
  );
  const mcpPort = await listen(
    createServer((request, response) => {
      response.on('finish', () =>
        seen.push({
          method: request.method ?? '',
          origin: request.headers.origin,
          status: response.statusCode,
        }),
      );
      void handle(request, response);
    }),
  );
  mcpUrl = `http://localhost:${mcpPort}/mcp`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  closeAll(servers);
});

/** Opens `page` in Chromium and runs one of its clients against the MCP server. */
async function runIn(page: string, client: keyof PageClients): Promise<PageOutcome> {
  const tab = await browser.newPage();
  try {
    await tab.goto(page);
    await tab.waitForFunction(() => 'mcp' in globalThis);
    return await tab.evaluate(
      ([name, url]) => (globalThis as unknown as { mcp: PageClients }).mcp[name](url),
      [client, mcpUrl] as const,
    );
  } finally {
    await tab.close();
  }
}

chromium.describe('the official MCP clients in Chromium, from another origin', () => {
  test('2025: a session (its id read from an answer), the tools listed, a call, the session ended', async () => {
    seen.length = 0;
    const outcome = await runIn(allowedPage, 'session2025');
    expect(outcome).toEqual({
      version: '2025-11-25',
      session: expect.stringMatching(/.+/),
      tools: TOOLS,
      text: '3 notes in inbox',
    });
    // The browser asked first, and was answered; the session ended with a DELETE.
    expect(seen).toContainEqual({ method: 'OPTIONS', origin: allowedPage, status: 204 });
    expect(seen).toContainEqual({ method: 'DELETE', origin: allowedPage, status: 200 });
  });

  test('2026-07-28: negotiated statelessly, the tools listed, a call', async () => {
    seen.length = 0;
    const outcome = await runIn(allowedPage, 'stateless2026');
    expect(outcome).toEqual({
      version: '2026-07-28',
      tools: TOOLS,
      text: '3 notes in inbox',
      // The SDK v2 client (2.4) sends no Mcp-Param-* header from a browser, so a tool that mirrors
      // an argument is refused as the specification asks: when this changes, say so in the docs.
      mirrored: expect.stringContaining('Header mismatch: the Mcp-Param-Region header is missing for region'),
    });
    expect(seen).toContainEqual({ method: 'OPTIONS', origin: allowedPage, status: 204 });
  });

  test('2026-07-28: a call with its Mcp-Param header, which the preflight allowed', async () => {
    seen.length = 0;
    expect(await runIn(allowedPage, 'mirroredCall')).toEqual({ text: 'deployed to eu-west' });
    expect(seen).toEqual([
      { method: 'OPTIONS', origin: allowedPage, status: 204 },
      { method: 'POST', origin: allowedPage, status: 200 },
    ]);
  });

  test.each<keyof PageClients>(['session2025', 'stateless2026', 'mirroredCall'])(
    'a page on an origin the server was not told: refused at its preflight (%s)',
    async (client) => {
      seen.length = 0;
      // The browser reports only that the request failed, as it does for a network error.
      expect(await runIn(otherPage, client)).toEqual({ error: expect.any(String) });
      expect(seen).toContainEqual({ method: 'OPTIONS', origin: otherPage, status: 403 });
      // Nothing but the refused preflight reached the server.
      expect(seen.filter((request) => request.method !== 'OPTIONS')).toEqual([]);
    },
  );
});
