import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer } from '@modelcontextprotocol/server';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createMcpHttpHandler, type McpHttpOptions } from 'toolprep/mcp';
import { attachTools as attachToolsV1 } from 'toolprep/mcp/server';
import { attachTools } from 'toolprep/mcp/v2';
import { createMcpFetchHandler } from 'toolprep/mcp/web';
import { createToolRuntime } from 'toolprep/runtime';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';

/**
 * toolprep's own HTTP serving answers a 2026-07-28 client's `tools/list` and `tools/call` from the
 * prepared tools, and hands 2025 requests to the `server` option's server: a server whose
 * `McpServer` has tools registered with the SDK would show them to 2025 clients only, so it is
 * refused at start, naming them (decision 0044). On the SDK's own transport, `attachTools`
 * composes both kinds (decision 0040).
 */

const INFO = { name: 'hand-over', version: '1.0.0' };
const search = defineTool({ description: 'Search notes.', input: z.object({ query: z.string() }) });
const runtime = createToolRuntime(prepareToolSet({ search }), { handlers: { search: () => 'found' } });
const text = { content: [{ type: 'text' as const, text: 'ok' }] };

/** Each SDK's `McpServer` with its own tools and toolprep's attached, as its low-level server. */
const SERVERS: Record<string, (sdkTools: readonly string[]) => () => ServerV1> = {
  'SDK v1 McpServer': (sdkTools) => () => {
    const server = new McpServerV1(INFO);
    for (const name of sdkTools) server.registerTool(name, { description: name }, () => text);
    return attachToolsV1(server, runtime).server;
  },
  'SDK v2 McpServer': (sdkTools) => () => {
    const server = new McpServer(INFO);
    for (const name of sdkTools) server.registerTool(name, { description: name }, () => text);
    // The option is typed by SDK v1's Server; a v2 one is handed over alike.
    return attachTools(server, runtime).server as unknown as ServerV1;
  },
};
const HANDLERS: Record<string, (options: McpHttpOptions) => unknown> = {
  'Node (createMcpHttpHandler)': (options) => createMcpHttpHandler(runtime, INFO, options),
  'fetch (createMcpFetchHandler)': (options) => createMcpFetchHandler(runtime, INFO, options),
};
const REFUSAL =
  /^\[toolprep\] the `server` option: the McpServer has tools registered with the SDK's registerTool \("create_issue", "close_issue"\), which toolprep's own serving would not list to a 2026-07-28 client/;

describe.each(Object.entries(HANDLERS))('%s', (_name, start) => {
  test.each(Object.entries(SERVERS))('refuses at start a %s with SDK tools, naming them', (_server, made) => {
    expect(() => start({ server: made(['create_issue', 'close_issue']) })).toThrow(REFUSAL);
  });

  test.each(Object.entries(SERVERS))('serves a %s without SDK tools', (_server, made) => {
    expect(start({ server: made([]) })).toBeTypeOf('function');
  });

  test('serves a low-level server, and a factory that throws (each request reports it)', () => {
    const lowLevel = () => attachToolsV1(new ServerV1(INFO, { capabilities: {} }), runtime);
    expect(start({ server: lowLevel })).toBeTypeOf('function');
    const failing = () => {
      throw new Error('cannot read /srv/app/config.json');
    };
    expect(start({ server: failing, onerror: () => {} })).toBeTypeOf('function');
  });
});
